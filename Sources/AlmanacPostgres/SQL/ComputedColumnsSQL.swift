import AlmanacCore
import Foundation

extension ComputedColumns {
    /// The values in the columns from `first` on, one per spec, as `QueryBuilder.page` sends
    /// them: numbers and dates (seconds) as their text, read exactly; lists as JSON arrays.
    static func read(_ result: PostgresResult, first: Int, specs: [(spec: String, type: ValueType)]) -> ComputedColumns {
        var values = Dictionary(uniqueKeysWithValues: specs.map { ($0.spec, [ResultValue]()) })
        for row in 0..<result.rowCount {
            for (index, spec) in specs.enumerated() {
                let text = result.value(row, first + index)
                let value: ResultValue
                switch (text, spec.type) {
                case (nil, _): value = .absent
                case let (text?, .list):
                    value = Self.value(try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]), type: spec.type)
                case let (text?, .number):
                    value = Double(text).map { $0 == $0.rounded() && abs($0) < 1e15 ? .integer(Int($0)) : .decimal($0) } ?? .absent
                case let (text?, .date): value = Double(text).map { .date(Date(timeIntervalSince1970: $0)) } ?? .absent
                case let (text?, .boolean): value = .boolean(PostgresResult.isTrue(text))
                case let (text?, _): value = .text(text)
                }
                values[spec.spec]?.append(value)
            }
        }
        return ComputedColumns(values: values)
    }

    static func value(_ value: Any?, type: ValueType) -> ResultValue {
        switch value {
        case let list as [Any]:
            let values = list.map { Self.value($0, type: type.element) }.filter { !$0.isAbsent }
            return values.isEmpty ? .absent : .list(values)
        case let flag as Bool where type.element == .boolean:
            return .boolean(flag)
        case let number as NSNumber where type.element == .boolean:
            return .boolean(number.boolValue)
        case let number as NSNumber:
            let double = number.doubleValue
            if type.element == .date { return .date(Date(timeIntervalSince1970: double)) }
            return double == double.rounded() && abs(double) < 1e15 ? .integer(Int(double)) : .decimal(double)
        case let text as String:
            return .text(text)
        default:
            return .absent
        }
    }
}
