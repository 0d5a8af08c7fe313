/// The keys at the prompt, as `help keys` and the manual page list them. The line editor binds
/// them (`LineEditor.bindKeys`, `ReverseSearch`, `LineContinuation`); a key bound there belongs
/// here too (then `make man`).
public enum PromptKeys {
    public struct Key: Sendable {
        public var keys: String
        public var meaning: String
    }

    public static let all: [Key] = [
        Key(keys: "TAB", meaning: """
            Complete the word before the cursor: a command, dataset name, field, field value, record \
            name or file path. A second TAB lists the candidates; a list longer than the screen asks \
            first, then shows a screenful at a time. A name typed as several words without quotes \
            completes whole (show united k: "United Kingdom of …"). When no name starts with the word, \
            the names with a word that does, else the other names search looks at (show Герм: Германия), \
            else those one or two typos away (show norwya: Norway); fields likewise (sort popluation: \
            population).
            """),
        Key(keys: "Up, Down", meaning: "Recall earlier lines from the history."),
        Key(keys: "Ctrl-R", meaning: """
            Search the history backwards as you type; Ctrl-R again finds the next older match, Enter \
            runs it, another control key leaves it to edit, Ctrl-G cancels.
            """),
        Key(keys: "Right, End, Ctrl-F, Ctrl-E", meaning: """
            Accept the hint whole: the rest of the newest history line that starts with what is typed, \
            dimmed after the cursor (lines typed under the dataset in use first). Without a hint, move \
            right or to the end of the line. set hints off: no hints.
            """),
        Key(keys: "Alt-F, Alt-Right", meaning: "Accept the hint's next word; without a hint, move past the next word."),
        Key(keys: "Ctrl-X Ctrl-E", meaning: """
            Edit the line (the last command when the line is empty) in $VISUAL, else $EDITOR, else vi; \
            what you save runs, one command per line, and an empty file runs nothing. The edit command \
            does the same for the last command.
            """),
        Key(keys: "\\ at the end", meaning: "Continue the command on the next line, at ...> ; history keeps it as one entry."),
        Key(keys: "Ctrl-C", meaning: "Clear the line, or cancel the running command or load."),
        Key(keys: "Ctrl-D", meaning: "Leave almanac, on an empty line. Keys typed while a command runs wait for the next prompt, a Ctrl-D too."),
        Key(keys: "Ctrl-A, Ctrl-B, Ctrl-K, Ctrl-W, ...", meaning: "Edit the line as in Emacs (libedit's emacs key map)."),
    ]

    /// The widest keys `help keys` writes beside their text; wider ones go on a line of their own.
    static let column = 16

    /// What the colours of the typed line mean, after the keys.
    public static let colours = """
        The line is coloured as you type: command names green (an unknown one red), dataset names \
        blue, fields the dataset has cyan and unknown ones red, operators and and/or bold, numbers \
        magenta, quoted text yellow, an unclosed quote red. set highlight off, NO_COLOR, --no-color \
        or TERM=dumb: no colours.
        """
}
