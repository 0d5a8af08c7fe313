import Foundation
import Testing

/// Strings from data and file names reach the terminal with their control characters made
/// visible: C0 (NUL, BS, CR, ESC…), DEL, C1 (the 8-bit CSI), escape sequences and the bidi
/// overrides and isolates. A generic dataset full of them is loaded and shown every way the
/// shell shows data — listing, detail, fields, group, datasets, errors, TAB completion — and
/// the raw bytes that reach the pseudo-terminal are searched for the payloads. NO_COLOR=1, so
/// the shell itself sends no SGR sequence that could be confused with one.
@Suite("Terminal safety: hostile strings are made visible")
struct TerminalSafetyTests {
    /// The payloads, as they would arrive raw. The shell's own drawing (libedit's cursor
    /// moves, `\r\n`, a bell for a TAB) uses none of these.
    static let payloads: [(String, [UInt8])] = [
        ("ESC [2J (clear screen)", Array("\u{1B}[2J".utf8)),
        ("OSC 0 (window title)", Array("\u{1B}]0;".utf8)),
        ("BEL ending an OSC", Array("title\u{07}".utf8)),
        ("ESC [31m (colour from the data)", Array("\u{1B}[31m".utf8)),
        ("C1 CSI U+009B", [0xC2, 0x9B]),
        ("U+202E right-to-left override", [0xE2, 0x80, 0xAE]),
        ("U+202A left-to-right embedding", [0xE2, 0x80, 0xAA]),
        ("U+2066 left-to-right isolate", [0xE2, 0x81, 0xA6]),
        ("U+2067 right-to-left isolate", [0xE2, 0x81, 0xA7]),
        ("DEL", [0x7F]),
        ("NUL", [0x00]),
        ("CR inside a value", Array("G\rcr".utf8)),
        ("BS inside a value", Array("H\u{08}bs".utf8)),
        ("VT inside a value", Array("K\u{0B}vt".utf8)),
        ("ESC c (reset)", Array("\u{1B}c".utf8)),
    ]

    /// Record names (the generic model's name field is `name`).
    static let names = [
        "A\u{1B}[2Jclear", "B\u{1B}]0;title\u{07}osc", "C\u{9B}31mcsi", "D\u{202E}override", "E\u{2066}isolate",
        "F\u{7F}del", "G\rcr", "H\u{08}bs", "I\u{0}nul", "J\u{1B}[31mred", "K\u{0B}vt", "L\u{202A}embed\u{2067}rtl", "M\u{1B}creset",
    ]

    let home: TemporaryHome
    let evilFile: String

    init() throws {
        home = try TemporaryHome()
        var records: [[String: Any]] = []
        for (index, name) in Self.names.enumerated() {
            records.append([
                "name": name,
                "note": "note \(name)",
                "kind": index % 2 == 0 ? "even\u{1B}[2J" : "odd\u{202E}",
                "n": index,
                "nested": ["deep\u{1B}]0;title\u{07}": "v\u{9B}1m", "list": ["a\u{07}", "b\u{1B}c"]],
                "key\u{1B}[2J": "value\u{202E}",
            ])
        }
        records.append(["name": "plain", "note": "x\u{1B}[2J\u{7F}\u{0}", "kind": "even\u{1B}[2J", "n": 99])
        let data = try JSONSerialization.data(withJSONObject: records)
        evilFile = try home.write(String(decoding: data, as: UTF8.self), to: "data/evil.json")
    }

    /// The payloads found in `bytes`, by name.
    static func payloadsIn(_ bytes: some Collection<UInt8>) -> [String] {
        let array = Array(bytes)
        return payloads.filter { array.contains(bytes: $0.1) }.map(\.0)
    }

    func start(_ arguments: [String] = []) throws -> PseudoTerminalSession {
        try PseudoTerminalSession(["--no-rc"] + arguments, environment: home.environment().with("ALMANAC_PAGER", "cat"),
                                  rows: 50, columns: 220)
    }

    @Test("use, listings, show, fields, group, datasets, an error quoting a name, and TAB completion show no payload raw")
    func interactive() throws {
        let session = try start()
        try session.waitForPrompt()
        try session.enter("set pager off")
        var offenders: [String] = []
        func check(_ label: String, _ action: () throws -> Void) rethrows {
            let start = session.raw.count
            try action()
            session.settle(quiet: .milliseconds(150))
            let found = Self.payloadsIn(session.raw[start...])
            if !found.isEmpty {
                offenders.append("\(label): \(found.joined(separator: ", "))\n\(String(decoding: session.raw[start...], as: UTF8.self).tail(600).visible)")
            }
        }
        try check("load") { try session.enter("load evil from \(evilFile)", timeout: .seconds(30)) }
        try check("use") { try session.enter("use evil", prompt: "evil> ") }
        try check("listing (filter clear)") {
            let shown = try session.enter("filter clear")
            #expect(shown.contains("rows 1–14 of 14"), "\(shown.visible)")
        }
        try check("listing (search)") { try session.enter("search e") }
        try check("sort + listing") { try session.enter("sort kind desc") }
        try check("show #1 (a name with ESC [2J)") { try session.enter("show #1") }
        try check("show plain") { try session.enter("show plain") }
        try check("show by a name with an override") { try session.enter("show #4") }
        try check("fields") { try session.enter("fields") }
        try check("group") { try session.enter("group kind") }
        try check("group on a hostile field") { try session.enter("group nested.deep") }
        try check("datasets") { try session.enter("datasets evil") }
        try check("random") { try session.enter("random") }
        try check("TAB TAB lists the names") {
            try session.send("show " + Key.tab)
            pause(milliseconds: 150)
            try session.send(Key.tab)
            try session.waitFor("plain")
            session.settle(quiet: .milliseconds(150))
            try session.send(Key.ctrlC)
            try session.waitFor("^C\n")  // the listing drew the prompt again: wait for the one after ^C
            try session.waitForPrompt()
        }
        try check("TAB completes a hostile name, and the error quotes it") {
            try session.send("show A" + Key.tab)
            session.settle(quiet: .milliseconds(200))
            let shown = try session.enter("zz")
            #expect(shown.contains("nothing called") || shown.contains("error"), "\(shown.visible)")
        }
        try check("TAB on a hostile field name") {
            try session.send("sort ke" + Key.tab)
            session.settle(quiet: .milliseconds(200))
            try session.enter("")
        }
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0)
        #expect(offenders.isEmpty, "payloads reached the terminal raw:\n\(offenders.joined(separator: "\n\n"))")
    }

    @Test("errors quoting hostile names and file names, from -c on a terminal, show no payload raw")
    func errorsAndFileNames() throws {
        let hostileFolder = home.root + "/dir\u{1B}[2J\u{07}\u{202E}\u{9B}"
        try FileManager.default.createDirectory(atPath: hostileFolder, withIntermediateDirectories: true)
        let copied = hostileFolder + "/evil\u{1B}]0;title\u{07}.json"
        try FileManager.default.copyItem(atPath: evilFile, toPath: copied)
        let broken = try home.write("[{\"name\": \"x\",, }]", to: "dir\u{1B}[2J\u{07}\u{202E}\u{9B}/broken\u{7F}.json")
        let session = try start([
            "-c", "load evil from \(copied)",
            "-c", "datasets evil",
            "-c", "load nothing from \(hostileFolder)/missing\u{1B}[2J.json",
            "-c", "load broken from \(broken)",
            "-c", "use evil",
            "-c", "show \u{1B}[2Jnobody\u{07}",
            "-c", "show \u{1B}]0;title\u{07}",
            "-c", "filter \u{1B}[2J = 1",
            "-c", "sort \u{202E}name",
            "-c", "group \u{9B}kind",
            "-c", "use \u{1B}[2J",
            "-c", "help \u{1B}]0;title\u{07}",
            "-c", "set format \u{7F}\u{0B}",
            "-c", "trip from \u{1B}c to \u{1B}[31m",
            "-c", "export \(hostileFolder)/out\u{1B}[2J.txt",
            "-c", "\u{1B}[2J",
        ])
        let status = try session.waitForExit(timeout: .seconds(30))
        #expect(status == 1, "\(session.text.tail().visible)")
        let found = Self.payloadsIn(session.raw)
        #expect(found.isEmpty, "payloads reached the terminal raw: \(found)\n\(session.rawText.tail(3000).visible)")
        #expect(session.text.contains("\\e[2J"), "the escapes are shown as text: \(session.text.tail(2000).visible)")
    }
}
