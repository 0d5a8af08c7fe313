import Foundation

/// SplitMix64: small, fast and the same everywhere, so a seed reproduces a run.
struct FuzzRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &self) < probability }
    mutating func pick<T>(_ items: [T]) -> T { items.randomElement(using: &self)! }
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
}

/// The words the shell understands, read from the binary itself: `help` for the commands,
/// `help NAME` for each one's keywords, `fields` under each dataset for field names and
/// example values. A new command or field joins the fuzz without editing the test.
struct ShellVocabulary: Sendable {
    var commands: [String]
    /// Lower-case literal words from each command's usage line (`from`, `asc`, `clear`, `next`…).
    var keywords: [String: [String]]
    /// Field names per dataset.
    var fields: [String: [String]]
    /// Example values from `fields`.
    var examples: [String]
    var datasets: [String]

    /// Commands the fuzz never generates: leaving (`quit` ends the script early), `load`
    /// (reports its outcome on stderr in a line of its own, and reads files), `export`
    /// (generated separately, only into the test's folder).
    /// `watch` runs until Ctrl-C at the prompt; `save` writes where it is told.
    static let excluded: Set<String> = ["quit", "exit", "load", "export", "watch", "save"]

    /// Fields with few distinct values: `group` over these stays cheap.
    static let cheapGroupFields = ["region", "subregion", "classification", "designation", "language", "countryTitle",
                                   "regionTitle", "directions", "currencies.code", "languages.iso639_1", "gender",
                                   "eye_color", "regionalBlocs.acronym", "climate", "terrain"]

    static func read(environment: TestEnvironment, directory: String) throws -> ShellVocabulary {
        let help = try PipeRun.run(["--no-rc", "-c", "help"], environment: environment, directory: directory)
        guard help.status == 0 else { throw HarnessError("`help` failed\n\(help)") }
        // "  NAME   summary" lines.
        let commands = help.stdout.lines.compactMap { line -> String? in
            guard line.hasPrefix("  "), let word = line.split(separator: " ").first else { return nil }
            return String(word)
        }
        guard commands.count >= 10 else { throw HarnessError("cannot read the commands from `help`\n\(help)") }

        let datasets = ["countries", "species", "planets", "people", "stations"]
        var arguments = ["--no-rc"]
        for command in commands { arguments += ["-c", "help \(command)"] }
        let details = try PipeRun.run(arguments, environment: environment, directory: directory, timeout: .seconds(60))
        guard details.status == 0 else { throw HarnessError("`help NAME` failed\n\(details)") }

        var keywords: [String: [String]] = [:]
        for line in details.stdout.lines where line.hasPrefix("usage: ") {
            let words = line.dropFirst("usage: ".count)
                .split(whereSeparator: { " []|,.".contains($0) })
                .map(String.init)
            guard let name = words.first else { continue }
            keywords[name] = words.dropFirst().filter { word in
                word == word.lowercased() && word.contains(where: \.isLetter) || word.hasPrefix("--") || word.hasPrefix("#")
            }
        }
        // Each dataset's `fields` as TSV: a header (field, type, records, example, …), then a row per field.
        var fields: [String: [String]] = [:]
        var examples: Set<String> = []
        for dataset in datasets {
            let listed = try PipeRun.run(["--no-rc", "--format", "tsv", "-c", "use \(dataset)", "-c", "fields"],
                                         environment: environment, directory: directory, timeout: .seconds(60))
            guard listed.status == 0 else { throw HarnessError("`fields` failed\n\(listed)") }
            let (_, rows) = try RecordFormats.table(try RecordFormats.tsv(listed.stdout))
            for row in rows {
                if let name = row["field"] { fields[dataset, default: []].append(name) }
                if let example = row["example"], !example.isEmpty, example.count < 60 { examples.insert(example) }
            }
        }
        guard fields.count == datasets.count else { throw HarnessError("cannot read `fields` for every dataset\n\(details)") }
        return ShellVocabulary(commands: commands.filter { !excluded.contains($0) }, keywords: keywords, fields: fields,
                               examples: examples.sorted(), datasets: datasets)
    }
}

/// Builds command lines for the fuzz: grammatical ones from the vocabulary, mutated ones,
/// several statements on a line, token soup, raw bytes, very long lines. Never a line that
/// quits, loads, or exports outside `out/`.
struct ShellFuzzer {
    let vocabulary: ShellVocabulary
    var random: FuzzRandom
    let allFields: [String]

    init(vocabulary: ShellVocabulary, seed: UInt64) {
        self.vocabulary = vocabulary
        random = FuzzRandom(seed: seed)
        allFields = vocabulary.fields.values.flatMap { $0 }.sorted()
    }

    static let operators = ["=", "!=", "~", "!~", "<", "<=", ">", ">="]
    static let values = [
        "Europe", "0", "-0", "1", "-1", "1.5", "1e309", "-1e309", "NaN", "inf", "9223372036854775807",
        "9223372036854775808", "-9223372036854775809", "0x10", "1,000", "1_000", "٣", "①", "½", "Москва", "москва",
        "Åland", "aland", "%", "*", ".*", "null", "true", "false", "\"\"", "''", "\"a b\"", "'Åland Islands'",
        "mammal", "Россия", "EUR", "57", "es", "from", "to", "Wookie", "Human", "9362", "9864", "NOR", "n/a", "unknown",
    ]
    static let rows = ["#0", "#1", "#2", "#3", "#-1", "#99999999999999999999", "#3.5", "#", "##1", "#١", "#1e3", "#+1"]
    static let pages = ["next", "prev", "first", "last", "0", "-1", "1", "2", "3", "99999999999999999999", "1e3", "+1", "", "two"]
    static let dates = ["today", "tomorrow", "yesterday", "2026-12-01", "1 Dec", "31 Feb", "2026-02-29", "0000-00-00",
                        "9999-99-99", "32 Dec", "-1 Dec", "Dec", "1", "2026-13-01", "99999999999-01-01"]
    static let stations = ["9864", "9362", "9484", "Казань", "\"Автостанция Красногвардейская\"", "#1", "#2", "0",
                           "-1", "99999999999999999999", "NOR", "Wookie", "x"]
    /// Bytes that make shells, terminals and parsers stumble.
    static let nasty: [[UInt8]] = [
        "\0", "\u{1B}[2J", "\u{1B}]0;title\u{07}", "\u{9B}", "\u{202E}", "\u{2066}", "\u{7F}", "\r", "\u{08}", "\t", "\u{0B}",
        "\u{0C}", "\"", "'", "\\", ";", "#", "(", ")", ",", "\u{FEFF}", "\u{200B}", "\u{FFFD}", "\u{10FFFF}", "👍🏽",
        "e\u{301}", "a\u{300}\u{301}\u{302}\u{303}\u{304}\u{305}", "İ", "ß", "ﬃ", "\u{85}", "\u{2028}", "\u{2029}", "\u{1B}",
        "\u{1B}[31m", "\\\\", "\\\"", "\"\\", "''''", "\"\"\"", ";;", " ; ", "#3", "# comment", "\u{3000}", "\u{A0}",
    ].map { Array($0.utf8) } + [
        [0xFF], [0xFE], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x80], [0xE2, 0x82], [0xF0, 0x9F],
        [0xC3], [0xBF, 0xBF],
    ]

    // MARK: - Lines

    /// The next line (never containing a newline).
    mutating func line() -> [UInt8] {
        while true {
            var export = false
            // Per 10,000 lines. Long lines are few: each costs the shell up to a second.
            let roll = random.int(0...9_999)
            var bytes: [UInt8]
            switch roll {
            case 0..<3_000: bytes = Array(statement().utf8)
            case 3_000..<6_000: bytes = mutate(Array(statement().utf8))
            case 6_000..<6_800:
                bytes = Array((0..<random.int(2...4)).map { _ in statement() }.joined(separator: random.pick([";", " ; ", ";;", "; "])).utf8)
            case 6_800..<7_300: bytes = randomBytes(count: random.int(0...60))
            case 7_300..<8_300: bytes = soup()
            case 8_300..<8_310: bytes = long(size: random.int(1_000...10_000))
            case 8_310..<8_311: bytes = long(size: random.int(50_000...110_000))
            case 8_311..<8_341:
                bytes = Array(exportStatement().utf8)
                export = true
            case 8_341..<8_650: bytes = Array(random.pick(["", " ", "\t", "#", "# nothing", ";", " ; ; ", "\\ ", "''", "\"\""]).utf8)
            default: bytes = Array(statement().utf8)
            }
            bytes.removeAll { $0 == 0x0A }
            if !export && Self.mentionsExcludedCommand(bytes) { continue }
            return bytes
        }
    }

    /// Whether a line could run `quit`, `load` or `export` however it is quoted or escaped.
    static func mentionsExcludedCommand(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes.filter { $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "'") && $0 != UInt8(ascii: "\\") },
                          as: UTF8.self).lowercased()
        return ShellVocabulary.excluded.contains { text.contains($0) }
    }

    /// One grammatical statement (its arguments may still be nonsense).
    mutating func statement() -> String {
        let command = random.chance(0.04) ? random.pick(["Help", "COUNT", "Use", "?", "fIlTeR"]) : random.pick(vocabulary.commands)
        let keywords = vocabulary.keywords[command.lowercased()] ?? []
        switch command.lowercased() {
        case "use": return "\(command) \(random.pick(vocabulary.datasets + ["all", "ALL", "nope", "", "countries species"]))"
        case "datasets": return random.chance(0.5) ? command : "\(command) \(random.pick(vocabulary.datasets + ["nope", "all"]))"
        case "help", "?": return random.chance(0.2) ? command : "\(command) \(random.pick(vocabulary.commands + ["nope", "help help", ""]))"
        case "search": return "\(command) \((0..<random.int(1...3)).map { _ in word() }.joined(separator: " "))"
        case "filter": return random.chance(0.1) ? "\(command) clear" : "\(command) \(expression(depth: 0))"
        case "sort":
            return "\(command) \(field()) \(random.pick(keywords.filter { $0 != "field" } + ["", "", "up", "DESC"]))"
        case "page": return "\(command) \(random.pick(Self.pages))"
        case "show":
            return "\(command) \(random.pick(Self.rows + Self.stations + vocabulary.examples.prefix(20) + [word()]))"
        case "group":
            let count = random.int(1...3)
            let separator = random.pick([", ", ",", " ,", " , ", ",,", " "])
            var text = (0..<count).map { _ in random.chance(0.97) ? random.pick(ShellVocabulary.cheapGroupFields) : field() }
                .joined(separator: separator)
            if random.chance(0.1) { text = random.pick([",,,", ",", "", text + ",", "," + text]) }
            return "\(command) \(text)"
        case "trip":
            var parts = [command]
            if random.chance(0.9) { parts += ["from", random.pick(Self.stations)] }
            if random.chance(0.9) { parts += [random.chance(0.95) ? "to" : "from", random.pick(Self.stations)] }
            if random.chance(0.6) { parts += ["on", random.pick(Self.dates)] }
            return parts.joined(separator: " ")
        case "set": return setStatement(command)
        case "history": return "\(command) \(random.pick(["", "5", "0", "-1", "x", "99999999999999999999"]))"
        default:
            // fields, count, random, about and anything new: bare, or with stray arguments.
            return random.chance(0.8) ? command : "\(command) \(word())"
        }
    }

    mutating func setStatement(_ command: String) -> String {
        switch random.int(0...9) {
        // Small pages keep the output of 100,000 lines small; `auto` (everything) now and then.
        case 0...3: return "\(command) pagesize \(random.chance(0.02) ? random.pick(["auto", "0"]) : String(random.int(1...12)))"
        case 4: return "\(command) pagesize \(random.pick(["-1", "x", "1000001", "99999999999999999999", "", "1.5"]))"
        case 5...6: return "\(command) format \(random.pick(["table", "json", "csv", "tsv", "ndjson", "xml", "", "JSON"]))"
        case 7: return "\(command) \(random.pick(["color", "colour", "pager"])) \(random.pick(["on", "off", "yes", "2", ""]))"
        case 8: return "\(command) \(random.pick(["", "nope", "format", "pagesize x y"]))"
        default: return "\(command) pagesize \(random.int(1...8))"
        }
    }

    mutating func exportStatement() -> String {
        let path = random.pick(["out/a", "out/b", "out/c", "missing-folder/a", "out/a.b"])
            + random.pick([".json", ".ndjson", ".csv", ".tsv", ".jsonl", ".txt", ""])
        return "export \(random.chance(0.05) ? random.pick(["out", "out/", "out/a.json out/b.json", ""]) : path)\(random.chance(0.7) ? " --force" : "")"
    }

    mutating func field() -> String {
        if random.chance(0.9) { return random.pick(allFields) }
        return random.pick(["a..b", ".name", "name.", "translations.", "currencies.code.x", "nope", "", "point.latitude.x",
                            "NAME", "Population", "\"name\"", "languages..name"])
    }

    mutating func word() -> String {
        switch random.int(0...9) {
        case 0...2: return random.pick(vocabulary.examples.isEmpty ? Self.values : vocabulary.examples)
        case 3...4: return random.pick(Self.values)
        case 5: return field()
        case 6: return random.pick(Self.operators + ["and", "or", "not", "(", ")"])
        case 7: return String(decoding: random.pick(Self.nasty), as: UTF8.self)
        default:
            return String(String.UnicodeScalarView((0..<random.int(1...8)).compactMap { _ in
                Unicode.Scalar(UInt32(random.pick([random.int(0x20...0x7E), random.int(0xA0...0x4FF), random.int(0x20...0x7E)])))
            }))
        }
    }

    /// `FIELD OP VALUE` joined with and/or/not and parentheses, sometimes broken on purpose.
    mutating func expression(depth: Int) -> String {
        if depth > 5 || random.chance(0.45) {
            if random.chance(0.05) { return random.pick(["", "name", "name =", "= x", "( )", "name = (", "((((("]) }
            return "\(field()) \(random.pick(Self.operators)) \(random.pick(Self.values + vocabulary.examples.prefix(30)))"
        }
        switch random.int(0...4) {
        case 0: return "not \(expression(depth: depth + 1))"
        case 1: return "(\(expression(depth: depth + 1)))"
        case 2: return "( \(expression(depth: depth + 1)) "
        default: return "\(expression(depth: depth + 1)) \(random.pick(["and", "or", "AND", "Or"])) \(expression(depth: depth + 1))"
        }
    }

    mutating func soup() -> [UInt8] {
        Array((0..<random.int(1...12)).map { _ in random.chance(0.15) ? random.pick(vocabulary.commands) : word() }
            .joined(separator: random.pick([" ", "  ", "\t", ";"])).utf8)
    }

    mutating func randomBytes(count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }

    mutating func long(size: Int) -> [UInt8] {
        let unit: [UInt8]
        switch random.int(0...7) {
        case 0: unit = Array("(".utf8)
        case 1: unit = Array("not ".utf8)
        case 2: unit = Array("a".utf8)
        case 3: unit = Array("\"".utf8)
        case 4: unit = Array("; ".utf8)
        case 5: unit = Array("\\".utf8)
        case 6: unit = Array("Москва ".utf8)
        default: unit = random.pick(Self.nasty)
        }
        let prefix = Array(random.pick(["filter ", "search ", "show ", "group ", "sort ", "help ", "", "use ", "set format "]).utf8)
        var bytes = prefix
        while bytes.count < size { bytes += unit }
        return bytes
    }

    /// Byte-level damage: nasty fragments, deletions, duplications, random bytes, quotes, `;`.
    mutating func mutate(_ original: [UInt8]) -> [UInt8] {
        var bytes = original
        for _ in 0..<random.int(1...4) {
            let position = random.int(0...bytes.count)
            switch random.int(0...8) {
            case 0, 1: bytes.insert(contentsOf: random.pick(Self.nasty), at: position)
            case 2 where position < bytes.count:
                bytes.removeSubrange(position..<min(bytes.count, position + random.int(1...6)))
            case 3 where position < bytes.count:
                let end = min(bytes.count, position + random.int(1...12))
                bytes.insert(contentsOf: bytes[position..<end], at: end)
            case 4: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: position)
            case 5 where position < bytes.count: bytes[position] ^= UInt8(1 << random.int(0...7))
            case 6: bytes.insert(contentsOf: Array(word().utf8), at: position)
            case 7: bytes.removeSubrange(position...)
            default: bytes.insert(contentsOf: Array(random.pick([";", "\"", "'", "\\", "(", ")", " ", "#"]).utf8), at: position)
            }
        }
        return bytes
    }
}
