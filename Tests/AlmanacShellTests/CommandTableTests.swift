import Testing
@testable import AlmanacShell

@Suite struct CommandTableTests {
    @Test func namesAndAliasesIgnoreCase() throws {
        #expect(try CommandTable.standard.resolve("HELP").spec.name == "help")
        #expect(try CommandTable.standard.resolve("Exit").spec.name == "quit")
    }

    /// The standard table names its commands itself, so that no spec is made at start-up.
    @Test func standardNamesAreTheSpecsNamesAndAliases() {
        for entry in CommandTable.standard.entries {
            #expect(entry.names == ([entry.command.spec.name] + entry.command.spec.aliases).map { $0.lowercased() })
        }
        let names = CommandTable.standard.allNames
        #expect(Set(names).count == names.count, "two commands are called alike: \(names)")
        #expect(CommandTable(CommandTable.standard.commands).allNames == names)
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

    /// Commands read their values by the parameter, which is told apart by name and keyword:
    /// two alike would read each other's words.
    @Test("no command declares two parameters a reading could confuse")
    func parametersAreDistinct() {
        for command in CommandTable.standard.commands {
            let parameters = command.spec.parameters ?? []
            for (index, parameter) in parameters.enumerated() {
                #expect(!parameters[..<index].contains { $0.isSame(as: parameter) }, "\(command.spec.name): \(parameter.name)")
            }
        }
    }

    @Test("a value is read by its parameter wherever the declaration puts it")
    func valuesAreReadByParameter() throws {
        let from = Parameter("STATION", .text(.nothing), .words, after: "from")
        let to = Parameter("STATION", .text(.nothing), .words, after: "to")
        for parameters in [[from, to], [to, from]] {
            var spec = CommandSpec(name: "x", summary: "x", parameters: parameters)
            spec.parameters = parameters
            let parsed = try Arguments([Word("to", column: 3), Word("B", column: 6), Word("from", column: 8), Word("A", column: 13)],
                                       spec: spec).parse()
            #expect(parsed.text(from) == "A" && parsed.text(to) == "B")
        }
    }

    @Test func everyCommandHasUsageAndExamples() {
        for command in CommandTable.standard.commands {
            #expect(command.spec.usage.hasPrefix(command.spec.name), "\(command.spec.name)")
            #expect(!command.spec.examples.isEmpty, "\(command.spec.name)")
            #expect(!command.spec.summary.isEmpty)
        }
    }
}
