import Testing
@testable import AlmanacShell

/// A setting is one declaration and a format one row: `set` lists and takes them, TAB offers
/// them, `help set` and the manual page describe them — nothing else is written for them.
@Suite struct DeclaredOnceTests {
    /// A pipe-separated format: a row of facts, no renderer of its own.
    static let psv = OutputFormat("psv", .delimited, fileExtensions: ["psv"], separator: "|", quoting: .doubleQuotes, header: true)
    /// A setting (stored where `timer` is: the test is about the declaration, not the storage).
    static let stopwatch = Setting.onOff("stopwatch", \.timer, help: "a test's setting, declared once.")
    static let table = SettingTable(SettingTable.with(formats: OutputFormat.all + [psv]).settings + [stopwatch])

    @Test("a new setting and a new format appear in set, its completion, help set and the manual page")
    func declaredOnce() {
        let shell = ShellHarness(load: ["countries"], settingTable: Self.table)
        let listed = shell.output("set").out
        #expect(listed.contains("stopwatch  off"), "\(listed)")
        #expect(shell.run("set stopwatch on"))
        #expect(shell.output("set stopwatch").out == "on\n")
        #expect(shell.session.settings.timer)

        let names = Completer().complete("set stop", in: shell.session).candidates.map(\.text)
        #expect(names == ["stopwatch"])
        let formats = Completer().complete("set format p", in: shell.session).candidates.map(\.text)
        #expect(formats == ["psv"])

        let help = shell.output("help set").out
        #expect(help.contains("stopwatch on|off (default off): a test's setting, declared once."))
        #expect(help.contains("format table|expanded|json|ndjson|csv|tsv|markdown|psv (default table)"))

        let page = ManualPage.render(generated: ".Sh NAME\n.Sh DESCRIPTION", commands: .standard, settings: Self.table, commandLine: "{}")
        #expect(page.contains("stopwatch on|off (default off): a test's setting, declared once."))
        #expect(page.contains("markdown|psv"))
    }

    @Test("the new format writes its rows with its separator: Åland Islands|ALA|Mariehamn")
    func formatRowWrites() {
        let shell = ShellHarness(load: ["countries"], settingTable: Self.table)
        shell.run("set stopwatch off")
        #expect(shell.run("use countries; set format psv; columns name, alpha3Code, capital"))
        let out = shell.output("search aland").out
        #expect(out == "name|alpha3Code|capital\nÅland Islands|ALA|Mariehamn\nNew Zealand|NZL|Wellington\n")
    }
}
