import AlmanacCore

/// Where a line came from, for error messages: `stdin:12:` or `setup.alm:3:`.
public struct SourceLocation: Sendable, Equatable {
    public var source: String
    public var line: Int
    public init(source: String, line: Int) {
        self.source = source
        self.line = line
    }
}

/// Runs lines: tokenizes, finds each statement's command, runs it, reports what failed.
public struct Executor {
    public let session: Session
    /// In a script, where shaping commands' listings wait to be the last (nil at the prompt).
    public let scriptAnswer: ScriptAnswer?

    public init(session: Session, scriptAnswer: ScriptAnswer? = nil) {
        self.session = session
        self.scriptAnswer = scriptAnswer
    }

    /// Runs every statement of `line`; a failing statement skips the rest of its line.
    /// Returns false when something failed.
    @discardableResult
    public func run(line: String, at location: SourceLocation? = nil) -> Bool {
        defer { session.output.flush() }
        let statements: [Statement]
        do {
            statements = try Tokenizer.statements(in: line)
        } catch {
            report(ShellError.syntax(error), at: location, line: line)
            return false
        }
        for statement in statements {
            guard !session.shouldQuit else { break }
            let started = ContinuousClock.now
            do {
                let afterGroups = session.lastGroups != nil
                let named = session.commands.lookup(statement.words[0].text)
                let drillsDown = named?.spec.name == ShowCommand.spec.name
                    && ShowCommand.drillsDown(Array(statement.words.dropFirst()), afterGroups: afterGroups)
                // Any command but quit, even one that fails, ends the wait of a held listing.
                scriptAnswer?.commandStarts(named?.spec.role, drillsDown: drillsDown, in: session)
                let command = try session.commands.resolve(statement.words[0])
                session.output.escapesControlCharacters = session.settings.format.isMachineReadable && session.output.terminal.isTerminal
                // A delimited format that escapes its cells' tabs uses tabs only as separators (TSV).
                session.output.keepsTabs = session.settings.format.writer == .delimited && session.settings.format.quoting == .backslashes
                let arguments = Arguments(Array(statement.words.dropFirst()), spec: command.spec)
                let isGroups = command.spec.name == GroupCommand.spec.name
                // A listing the script holds is made only if it is written (ScriptAnswer).
                session.listingWaits = scriptAnswer?.holds(command.spec.role, words: arguments.words.count, groups: isGroups,
                                                           drillsDown: drillsDown, in: session) ?? false
                defer { session.listingWaits = false }
                let result = try session.perform(command, arguments)
                session.commandLog.record(command, arguments.words, afterGroups: afterGroups, undoable: session.undoable.count)
                if let result {
                    if let scriptAnswer {
                        scriptAnswer.deliver(result, role: command.spec.role, words: arguments.words.count,
                                             groups: isGroups, drillsDown: drillsDown, in: session, at: location, line: line)
                    } else {
                        session.render(result)
                    }
                }
                session.output.endCommand()
                for message in result?.messages ?? [] { session.output.message(message) }
                reportTime(since: started)
            } catch {
                report(Self.pointed(error, in: statement), at: location, line: line)
                reportTime(since: started)
                return false
            }
        }
        return true
    }

    /// An unknown field or a path through no link, from whichever command named it, pointed at
    /// where the line names it. (A filter's value of the wrong type is pointed at by filter.)
    static func pointed(_ error: any Error, in statement: Statement) -> any Error {
        if error is ExpressionError { return ExpressionWords.pointed(error, in: Array(statement.words.dropFirst())) }
        let field: String
        switch error as? QueryError {
        case let .unknownField(name, _)?, let .notALink(name, _)?: field = name
        default: return error
        }
        let tokens = Arguments.tokens(Array(statement.words.dropFirst()))
        guard let word = tokens.first(where: { !$0.isComma && $0.word.text == field })?.word else { return error }
        return ShellError.at(column: word.column, width: max(1, TextWidth.of(word.text)), .invalid("\(error)"))
    }

    /// `time: 1.23 ms` on standard error after a command, under `set timer on` (machine output stays clean).
    private func reportTime(since started: ContinuousClock.Instant) {
        guard session.settings.timer else { return }
        let elapsed = ContinuousClock.now - started
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        session.output.message("time: \(NumberFormat.grouped(milliseconds, decimals: milliseconds < 10 ? 2 : 1)) ms")
    }

    /// Errors go to standard error: `stdin:3: message` in scripts, `error: message` at the prompt.
    /// At the prompt, an error about one word of `line` shows the line with a caret under the
    /// word (sqlite's shell); a script keeps its one line per error and names the word's column
    /// as compilers do (`stdin:3:21: message`, the column as the terminal shows it, from 1: a
    /// tab to the next multiple of 8, a wide letter two — gcc's display column).
    public func report(_ error: any Error, at location: SourceLocation?, line: String? = nil) {
        session.output.flush()
        // Errors quote data and file names: nothing in them may act on the terminal, and no
        // password of the line may show.
        let message = SafeText.escapeLines(PasswordRedaction.message("\(error)", about: line))
        if let location {
            var column = ""
            if case let .at(at, width, _)? = error as? ShellError, at >= 1 {
                // The column the caret would stand in, tabs and wide letters as the screen shows them.
                column = ":\(line.map { PasswordRedaction.caret($0, column: at, width: width).offset + 1 } ?? at)"
            }
            session.output.message("\(location.source):\(location.line)\(column): \(message)")
        } else if error is CancelledError {
            session.output.message(message)
        } else {
            let label = session.settings.color && session.output.errorIsTerminal ? "\u{1B}[1;31merror:\u{1B}[0m" : "error:"
            session.output.message("\(label) \(message)")
            if let line, case let .at(column, width, _)? = error as? ShellError, column >= 1 {
                let (shown, offset, width) = PasswordRedaction.caret(line, column: column, width: width)
                session.output.message("  " + shown)
                session.output.message("  " + String(repeating: " ", count: offset) + "^" + String(repeating: "~", count: max(0, width - 1)))
            }
        }
    }
}
