import Foundation

/// `friday`, `fri`, `пятница`, `пт`, `next friday`: the first such weekday after today (a week
/// ahead when today is that day, as "on Friday" said on a Friday means), or the one after it.
enum Weekday {
    /// English names (any prefix of three letters or more: `fri`, `thurs`), Sunday first as
    /// Calendar numbers weekdays.
    static let englishNames = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
    /// Russian names as typed after "в" or alone, and their two-letter abbreviations.
    static let russianNames: [[String]] = [
        ["воскресенье", "вс"], ["понедельник", "пн"], ["вторник", "вт"], ["среда", "среду", "ср"],
        ["четверг", "чт"], ["пятница", "пятницу", "пт"], ["суббота", "субботу", "сб"],
    ]

    /// What the date completion offers after `on`: Monday first, as the week is printed here.
    static let completions = Array(englishNames[1...]) + [englishNames[0], "next"]

    /// Calendar's weekday number (1 = Sunday) of a name, or nil.
    static func number(_ word: some StringProtocol) -> Int? {
        let word = word.lowercased()
        if word.count >= 3, let index = englishNames.firstIndex(where: { $0.hasPrefix(word) }) { return index + 1 }
        return russianNames.firstIndex { $0.contains(word) }.map { $0 + 1 }
    }

    /// The date `text` names when it is a weekday, with or without `next`; nil otherwise.
    static func date(_ text: String, after today: Date, calendar: Calendar) -> Date? {
        let words = text.split(separator: " ")
        let weeksLater: Int
        switch words.count {
        case 1: weeksLater = 0
        case 2 where ["next", "следующий", "следующая", "следующую", "следующее"].contains(words[0]): weeksLater = 1
        default: return nil
        }
        guard let wanted = number(words[words.count - 1]) else { return nil }
        var days = (wanted - calendar.component(.weekday, from: today) + 7) % 7
        if days == 0 { days = 7 }
        return calendar.date(byAdding: .day, value: days + 7 * weeksLater, to: today)
    }
}
