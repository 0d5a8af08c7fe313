import AlmanacCore

/// `show TARGET`: one record in detail. TARGET is a row of the last listing (`#3`), an
/// identity (`NOR`, `NO`, `9362`, `3`), or a name — exact, exactly another name search looks
/// at (a quote's author), or a unique beginning. After a `group` listing, `show #N` lists the
/// records of group N instead (drill-down).
public enum ShowCommand: Command {
    static let target = Parameter("#ROW|ID|NAME", .text(.recordName), .words)

    public static let spec = CommandSpec(
        name: "show",
        summary: "Show one record in detail, or after group the records of one group",
        parameters: [target],
        examples: ["show #3", "show NOR", "show NO", "show 9362", "show Wookie", "show \"Åland Islands\"", "group region; show #2"],
        discussion: """
        NAME is a record's name, exactly or a unique beginning, ignoring case and accents; or exactly \
        one of the other names search looks at (fields says which: a station's city, a quote's \
        author). When several records match, their ids, names and what tells them apart are listed. \
        After a group listing, show #N narrows the results to the records of group N and lists them; \
        back undoes it.
        """
    )

    /// Whether `show` with these words drills into the last group listing (`show #2` after a
    /// `group`): then it narrows the results, as a filter does, rather than showing a record.
    static func drillsDown(_ words: [Word], afterGroups: Bool) -> Bool {
        afterGroups && words.map(\.text).joined(separator: " ").trimmingCharacters(in: .whitespaces).hasPrefix("#")
    }

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        let given = try arguments.parse()[target]
        let text = given.map(\.text).joined(separator: " ")
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let listing = session.lastGroups, trimmed.hasPrefix("#"), let number = Int(trimmed.dropFirst()) {
            guard number >= 1, number <= listing.count else {
                throw ShellError.invalid("there is no group #\(number): the last group listing has \(listing.count.grouped) groups")
                    .pointing(at: given.map(\.word))
            }
            return try session.apply(listing.drill(number))
        }
        do {
            let target = try RecordTarget.resolve(text, in: session)
            return RecordTarget.result(target, in: session)
        } catch let error as ShellError {
            // What was not found is pointed at; a list of candidates says enough.
            guard case let .invalid(message) = error, !message.contains("\n") else { throw error }
            throw error.pointing(at: given.map(\.word))
        }
    }
}

/// A record a command points at, and how `show`, `random` and `trip` find and print one.
typealias RecordTarget = RecordRef

extension RecordRef {
    /// The record `text` names among the current results (`#3`, an id, a name); or, given
    /// `datasets` (in memory), among their records that `include` accepts.
    static func resolve(_ text: String, in session: Session, datasets only: [Dataset]? = nil,
                        where include: ((Dataset, Int) -> Bool)? = nil) throws -> RecordTarget {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("#"), let number = Int(trimmed.dropFirst()) {
            var source = try session.results()
            let total = try source.count(fresh: false, cancellation: session.cancellation)
            guard number >= 1, number <= total else {
                throw ShellError.invalid("there is no row #\(number): the results have \(total.grouped) row\(total == 1 ? "" : "s")")
            }
            if session.source != nil { session.keep(source) }
            do {
                return try source.record(at: number - 1, cancellation: session.cancellation)
            } catch let error as QueryError {
                throw ShellError.invalid("\(error)")
            }
        }
        let match: RecordMatch
        let names: [String]
        if let only {
            names = only.map(\.name)
            match = try RecordFinder.find(trimmed, in: only, where: include, cancellation: session.cancellation)
        } else {
            // Among every record of the scope as it is now, whatever the results.
            let everything = try session.freshResults()
            names = everything.datasetNames
            match = try everything.find(trimmed, limit: ambiguityRoom(in: session), cancellation: session.cancellation)
        }
        switch match {
        case let .one(target):
            return target
        case let .none(similar):
            let advice = similar.isEmpty ? "try search \(SafeText.escape(trimmed))" : "did you mean \(Self.either(similar))?"
            throw ShellError.invalid("nothing called '\(SafeText.escape(trimmed))' in \(names.joined(separator: ", ")) — \(advice)")
        case let .several(candidates, total, identities):
            throw ShellError.invalid(ambiguity(trimmed, candidates: candidates, total: total, identities: identities,
                                               spansDatasets: names.count > 1, in: session))
        }
    }

    /// How many candidates an ambiguous name lists: a screenful at the prompt, ten in a script.
    static func ambiguityRoom(in session: Session) -> Int {
        session.isInteractive && session.output.errorIsTerminal ? max(3, session.output.terminal.rows - 4) : 10
    }

    /// `'Трасса' matches 53 stations — be more precise or use an id:` and each candidate's id,
    /// name and what tells it apart (a station's city, a country's capital). At the prompt, one
    /// per line, as many as fit the terminal, then how many more; in a script, where every
    /// error is one `SOURCE:LINE:` line, the first ten on that line. `total`: how many match
    /// when `candidates` are only the first of them (a database sends a few); `identities`: what
    /// to show as each candidate's id when its model has none (a table's primary key).
    static func ambiguity(_ text: String, candidates: [RecordTarget], total: Int? = nil, identities: [String?] = [],
                          spansDatasets: Bool, in session: Session) -> String {
        let total = total ?? candidates.count
        let models = Set(candidates.map { ObjectIdentifier($0.dataset) })
        let noun = models.count == 1 ? candidates[0].dataset.model.plural : "records"
        let heading = "'\(SafeText.escape(text))' matches \(total.grouped) \(noun) — be more precise or use an id:"
        let listed = session.isInteractive && session.output.errorIsTerminal
        // At the prompt: the terminal's height, less the heading, the "more" line and the prompt.
        let room = ambiguityRoom(in: session)
        let shown = candidates.prefix(room)
        let more = total > shown.count ? "… and \((total - shown.count).grouped) more" : nil
        let rows: [[String]] = shown.enumerated().map { place, target in
            let dataset = target.dataset
            let identity = dataset.identities(of: target.row).first ?? (identities.indices.contains(place) ? identities[place] : nil) ?? "#\(target.row + 1)"
            let name = dataset.name(of: target.row)
            // The first listing field that is neither the name nor the id: what tells namesakes apart.
            let context = dataset.layout.listFields.lazy.filter { $0 != dataset.layout.nameField }
                .compactMap { dataset.displayText(of: dataset.compile(FieldPath($0)), row: target.row) }
                .first { $0.uppercased() != identity && $0 != name } ?? ""
            return (spansDatasets ? [dataset.name] : []) + [identity, name, context].map { SafeText.escape($0) }
        }
        guard listed else {
            let items = rows.map { row in
                row.dropLast().joined(separator: " ") + (row.last!.isEmpty ? "" : " (\(row.last!))")
            }
            return heading + " " + (items + (more.map { [$0] } ?? [])).joined(separator: "; ")
        }
        var widths = [Int](repeating: 0, count: rows.first?.count ?? 0)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], TextWidth.of(cell)) } }
        let idColumn = spansDatasets ? 1 : 0
        var lines = [heading]
        for row in rows {
            let cells = row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : TextWidth.pad(cell, to: widths[index], alignRight: index == idColumn)
            }
            lines.append(("  " + cells.joined(separator: "  ")).trailingSpacesRemoved)
        }
        if let more { lines.append("  " + more) }
        return lines.joined(separator: "\n")
    }

    /// `A`, `A or B`, `A, B or C`.
    static func either(_ names: [String]) -> String {
        let shown = names.map { SafeText.escape($0) }
        guard shown.count > 1 else { return shown.first ?? "" }
        return shown.dropLast().joined(separator: ", ") + " or " + shown[shown.count - 1]
    }

    /// The record as an answer: in detail for people, its source object for programs.
    static func result(_ target: RecordTarget, in session: Session) -> CommandResult {
        let results = ResultSet(datasets: [target.dataset], items: [ResultSet.Item(dataset: 0, row: target.row)])
        let table = RecordListing.table(results, range: 0..<1, fields: target.dataset.layout.listFields)
        // The detail view reads linked datasets: only people's formats need it.
        let detail = session.settings.format.isMachineReadable
            ? nil : LinkSections.adding(to: target.dataset.model.detail(of: target.dataset, row: target.row, links: session.links),
                                        of: target.dataset, row: target.row)
        return CommandResult(table, shape: .object, prose: detail.map { .detail($0) })
    }
}

import Foundation
