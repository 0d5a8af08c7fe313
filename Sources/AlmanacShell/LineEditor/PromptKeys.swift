/// The keys at the prompt, as the manual page lists them. The line editor binds them
/// (`LineEditor.bindKeys`, `ReverseSearch`); a key bound there belongs here too (then `make man`).
public enum PromptKeys {
    public struct Key: Sendable {
        public var keys: String
        public var meaning: String
    }

    public static let all: [Key] = [
        Key(keys: "TAB", meaning: """
            Complete the word before the cursor: a command, dataset name, field, field value (when there \
            are few), record name or file path. A second TAB lists the candidates.
            """),
        Key(keys: "Up, Down", meaning: "Recall earlier lines from the history."),
        Key(keys: "Ctrl-R", meaning: """
            Search the history backwards as you type; Ctrl-R again finds the next older match, Enter \
            runs it, another control key leaves it to edit, Ctrl-G cancels.
            """),
        Key(keys: "Right, Ctrl-F, End, Ctrl-E", meaning: """
            Accept the hint (the rest of a matching history line, dimmed after the cursor) whole; \
            without a hint, move right or to the end of the line.
            """),
        Key(keys: "Alt-F, Alt-Right", meaning: "Accept the hint's next word; without a hint, move past the next word."),
        Key(keys: "Ctrl-C", meaning: "Clear the line, or cancel the running command or load."),
        Key(keys: "Ctrl-D", meaning: "Leave almanac, on an empty line."),
        Key(keys: "Ctrl-A, Ctrl-B, Ctrl-K, Ctrl-W, ...", meaning: "Edit the line as in Emacs (libedit's emacs key map)."),
    ]
}
