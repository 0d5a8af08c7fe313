import Testing
@testable import AlmanacShell

@Suite struct CommandTableTests {
    @Test func namesAndAliasesIgnoreCase() throws {
        #expect(try CommandTable.standard.resolve("HELP").spec.name == "help")
        #expect(try CommandTable.standard.resolve("Exit").spec.name == "quit")
    }

    @Test func unknownCommandSuggestsTheClosest() {
        #expect(throws: ShellError.unknownCommand("serach", suggestion: "search")) { try CommandTable.standard.resolve("serach") }
        #expect(ShellError.unknownCommand("serach", suggestion: "search").description
            == "unknown command 'serach' — did you mean 'search'?")
    }

    @Test func unrelatedWordsGetNoSuggestion() {
        #expect(throws: ShellError.unknownCommand("xyzzyq", suggestion: nil)) { try CommandTable.standard.resolve("xyzzyq") }
    }

    @Test func everyCommandDeclaresItsArguments() {
        var undeclared: [String] = []
        for command in CommandTable.standard.commands where command.spec.parameters == nil { undeclared.append(command.spec.name) }
        #expect(undeclared.isEmpty, "parsed by hand: \(undeclared)")
    }

    @Test func everyCommandHasUsageAndExamples() {
        for command in CommandTable.standard.commands {
            #expect(command.spec.usage.hasPrefix(command.spec.name), "\(command.spec.name)")
            #expect(!command.spec.examples.isEmpty, "\(command.spec.name)")
            #expect(!command.spec.summary.isEmpty)
        }
    }
}
