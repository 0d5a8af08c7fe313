import Foundation

/// Reading back what almanac writes in its machine formats, independently of its own code:
/// JSON and NDJSON through JSONSerialization, CSV with an RFC 4180 parser, TSV with backslash
/// escapes, and a comparison of a delimited cell with the JSON value it stands for.
enum RecordFormats {
    /// A JSON array of objects.
    static func jsonArray(_ text: String) throws -> [[String: Any]] {
        let value = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        guard let array = value as? [Any] else { throw HarnessError("not a JSON array: \(String(text.prefix(200)).visible)") }
        return try array.enumerated().map { index, element in
            guard let object = element as? [String: Any] else { throw HarnessError("element \(index) is not an object") }
            return object
        }
    }

    /// One JSON object per line; every line must be one.
    static func ndjson(_ text: String) throws -> [[String: Any]] {
        try text.lines.enumerated().map { index, line in
            let value = try JSONSerialization.jsonObject(with: Data(line.utf8))
            guard let object = value as? [String: Any] else { throw HarnessError("line \(index + 1) is not an object: \(line.prefix(200))") }
            return object
        }
    }

    /// RFC 4180: fields separated by commas, records by CRLF or LF; a field in double quotes may
    /// hold commas, line breaks and doubled quotes. A final line break is optional. Malformed
    /// quoting is an error, not a guess.
    static func csv(_ text: String) throws -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var scalars = Array(text.unicodeScalars)[...]
        var fieldStarted = false
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "\"" where field.isEmpty && !fieldStarted:
                fieldStarted = true
                var closed = false
                while let inner = scalars.popFirst() {
                    if inner == "\"" {
                        if scalars.first == "\"" {
                            scalars.removeFirst()
                            field.unicodeScalars.append("\"")
                        } else {
                            closed = true
                            break
                        }
                    } else {
                        field.unicodeScalars.append(inner)
                    }
                }
                guard closed else { throw HarnessError("CSV record \(records.count + 1): unterminated quoted field") }
                if let next = scalars.first, next != ",", next != "\n", next != "\r" {
                    throw HarnessError("CSV record \(records.count + 1): '\(next)' after a closing quote")
                }
            case "\"":
                throw HarnessError("CSV record \(records.count + 1): a quote inside an unquoted field: \(field)")
            case ",":
                record.append(field)
                field = ""
                fieldStarted = false
            case "\r", "\n":
                if scalar == "\r" {
                    guard scalars.first == "\n" else { throw HarnessError("CSV record \(records.count + 1): a bare CR") }
                    scalars.removeFirst()
                }
                record.append(field)
                records.append(record)
                record = []
                field = ""
                fieldStarted = false
            default:
                fieldStarted = true
                field.unicodeScalars.append(scalar)
            }
        }
        if fieldStarted || !record.isEmpty {
            record.append(field)
            records.append(record)
        }
        return records
    }

    /// Tab-separated values, one record per line, with `\\`, `\t`, `\n` and `\r` escapes in cells.
    static func tsv(_ text: String) throws -> [[String]] {
        try text.lines.map { line in
            try line.split(separator: "\t", omittingEmptySubsequences: false).map { cell in
                var result = ""
                var scalars = cell.unicodeScalars.makeIterator()
                while let scalar = scalars.next() {
                    guard scalar == "\\" else { result.unicodeScalars.append(scalar); continue }
                    switch scalars.next() {
                    case "\\": result += "\\"
                    case "t": result += "\t"
                    case "n": result += "\n"
                    case "r": result += "\r"
                    case let other: throw HarnessError("TSV: unknown escape \\\(other.map(String.init) ?? "at the end") in \(line.prefix(120))")
                    }
                }
                return result
            }
        }
    }

    /// Header plus rows as objects: every row must have the header's number of cells.
    static func table(_ rows: [[String]]) throws -> (header: [String], records: [[String: String]]) {
        guard let header = rows.first else { throw HarnessError("no header row") }
        var records: [[String: String]] = []
        for (index, row) in rows.dropFirst().enumerated() {
            guard row.count == header.count else {
                throw HarnessError("row \(index + 2) has \(row.count) cells, the header \(header.count): \(row.prefix(4))")
            }
            records.append(Dictionary(uniqueKeysWithValues: zip(header, row)))
        }
        return (header, records)
    }

    /// Whether a delimited cell stands for `value` (a JSONSerialization value, nil when the
    /// record lacks the key): text as itself, a number as its digits, `true`/`false`, null or
    /// missing as an empty cell, lists and objects as JSON that parses to an equal value.
    /// A record as CSV and TSV write it: a nested object (not empty) as its members' dotted
    /// keys (`translations.de`), at any depth; lists and other values as they are.
    static func flattened(_ record: [String: Any]) -> [String: Any] {
        var flat: [String: Any] = [:]
        for (key, value) in record {
            if let object = value as? [String: Any], !object.isEmpty {
                for (path, inner) in flattened(object) { flat[key + "." + path] = inner }
            } else {
                flat[key] = value
            }
        }
        return flat
    }

    static func cell(_ cell: String, represents value: Any?) -> Bool {
        guard let value, !(value is NSNull) else { return cell.isEmpty }
        switch value {
        case let text as String:
            return cell == text
        case let number as NSNumber:
            // JSONSerialization gives booleans as NSNumber too.
            if cell == "true" || cell == "false" { return number.boolValue == (cell == "true") }
            guard let parsed = Double(cell) else { return false }
            return parsed == number.doubleValue
        case is [Any], is [String: Any]:
            guard let parsed = try? JSONSerialization.jsonObject(with: Data(cell.utf8)) else { return false }
            return equal(parsed, value)
        default:
            return false
        }
    }

    /// Whether two JSONSerialization values are equal: objects by keys, lists in order, numbers
    /// by value, null only to null.
    static func equal(_ one: Any?, _ other: Any?) -> Bool {
        switch (one, other) {
        case (nil, nil):
            return true
        case let (left as [String: Any], right as [String: Any]):
            guard left.count == right.count else { return false }
            return left.allSatisfy { key, value in right[key] != nil && equal(value, right[key]) }
        case let (left as [Any], right as [Any]):
            return left.count == right.count && zip(left, right).allSatisfy { equal($0, $1) }
        case let (left as String, right as String):
            return left == right
        case let (left as NSNumber, right as NSNumber):
            return left.doubleValue == right.doubleValue
        case (is NSNull, is NSNull):
            return true
        default:
            return false
        }
    }
}
