import AlmanacCore

/// The sections almanac.1 adds to what swift-argument-parser generates from the command line:
/// the command language (from the command table, so the page says what `help` says), the
/// keys at the prompt, the environment, files, exit status and examples.
enum ManualSections {
    /// Their titles, in order: the page is rebuilt by replacing exactly these.
    static let titles = ["COMMANDS", "KEYS AT THE PROMPT", "ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES", "SEE ALSO", "AUTHORS"]

    static func all(commands: CommandTable, settings: SettingTable = .standard) -> [(title: String, body: String)] {
        let bodies = [
            self.commands(commands, settings: settings) + "\n.Ss Expressions\n" + ExpressionHelp.manual
                + "\n.Ss Links\n" + LinkHelp.manual, keys, environment, files, exitStatus,
            examples, seeAlso, authors,
        ]
        return Array(zip(titles, bodies)).map { (title: $0.0, body: $0.1) }
    }

    static func commands(_ table: CommandTable, settings: SettingTable = .standard) -> String {
        var lines = [
            #"almanac reads commands at its prompt, from the files given with"#,
            #".Fl f ,"#,
            #"from"#,
            #".Fl c"#,
            #"and from standard input."#,
            #"A line holds one or more commands separated by"#,
            #".Ql \&; ;"#,
            #"words split on spaces,"#,
            #".Ql \(dq...\(dq"#,
            #"and"#,
            #".Ql '...'"#,
            #"quote,"#,
            #".Ql \e"#,
            #"escapes, and"#,
            #".Ql #"#,
            #"at the start of a word begins a comment (but"#,
            #".Ql #3"#,
            #"is row 3 of the last listing)."#,
            #"Command names ignore case."#,
            #"A failing command skips the rest of its line; in a script the next lines still run, unless"#,
            #".Fl -bail ."#,
            #".Ic help"#,
            #"lists the commands and"#,
            #".Ic help Ar COMMAND"#,
            #"shows one."#,
            #".Bl -tag -width Ds"#,
        ]
        for command in table.commands {
            let spec = command.spec
            lines.append(".It Li " + MDoc.quoted(spec.usage))
            lines.append(MDoc.text(spec.summary + "."))
            let discussion = command.discussion(settings: settings)
            if !discussion.isEmpty { lines.append(MDoc.text(discussion)) }
            if !spec.aliases.isEmpty {
                lines.append("Also called")
                for (index, alias) in spec.aliases.enumerated() {
                    lines.append(".Ql " + MDoc.quoted(alias) + (index == spec.aliases.count - 1 ? " ." : " ,"))
                }
            }
            if !spec.examples.isEmpty { lines.append(MDoc.literal(spec.examples)) }
        }
        lines.append(".El")
        return lines.joined(separator: "\n")
    }

    static var keys: String {
        var lines = ["At the prompt (standard input a terminal):", ".Bl -tag -width Ds"]
        for key in PromptKeys.all {
            lines.append(".It " + MDoc.quoted(key.keys))
            lines.append(MDoc.text(key.meaning))
        }
        lines.append(".El")
        lines += [".Pp", MDoc.text(PromptKeys.colours)]
        return lines.joined(separator: "\n")
    }

    /// Every variable almanac reads: one it starts to read belongs here too (then `make man`).
    static let environment = #"""
    .Bl -tag -width Ds
    .It Ev ALMANAC_DATA
    The folder with the datasets, when
    .Fl -data
    does not name one.
    .It Ev ALMANAC_HISTORY
    The history file, instead of
    .Pa $XDG_STATE_HOME/almanac/history .
    .It Ev ALMANAC_PAGER , Ev PAGER
    The pager for long output at the prompt (the first that is set), else
    .Ql less \-FRX ;
    it runs with
    .Ev LESS Ns = Ns Ql FRX
    when
    .Ev LESS
    is not set, as git runs it;
    .Ic set pager off
    turns it off.
    .It Ev NO_COLOR
    When set and not empty, no colour, as with
    .Fl -no-color .
    .It Ev TERM
    When
    .Ql dumb ,
    no colour; when
    .Ql dumb
    or unset, no hints and no colours as you type at the prompt.
    .It Ev VISUAL , Ev EDITOR
    The editor that Ctrl-X Ctrl-E and
    .Ic edit
    open (the first that is set and not blank, run through
    .Pa /bin/sh
    with the file's path after it), else
    .Ql vi .
    .It Ev ALMANAC_FETCH
    The helper that fetches http(s) URLs, instead of
    .Pa almanac-fetch
    beside the binary or in
    .Pa PREFIX/libexec/almanac .
    .It Ev PGHOST , Ev PGPORT , Ev PGUSER , Ev PGDATABASE , Ev PGPASSWORD , Ev PGPASSFILE
    What a
    .Ql postgresql://
    URL leaves out, as libpq reads them (and the rest of libpq's variables); a password
    comes best from
    .Pa ~/.pgpass
    (or
    .Ev PGPASSFILE ) ,
    so it is never typed, and is never shown.
    .It Ev XDG_STATE_HOME , Ev XDG_CONFIG_HOME , Ev HOME
    Where the history and the startup file are (see
    .Sx FILES ) .
    .El
    """#

    static let files = #"""
    .Bl -tag -width Ds
    .It Pa $XDG_STATE_HOME/almanac/history
    The history
    .Pf ( Pa ~/.local/state/almanac/history
    when
    .Ev XDG_STATE_HOME
    is unset;
    .Ev ALMANAC_HISTORY
    overrides both): one entry per line, at most 10,000, mode 0600.
    Lines typed with a leading space are not kept.
    .It Pa $XDG_CONFIG_HOME/almanac/almanacrc
    The startup file
    .Pf ( Pa ~/.config/almanac/almanacrc
    when
    .Ev XDG_CONFIG_HOME
    is unset): commands run before any other, in every mode;
    .Fl -no-rc
    skips it.
    .It Pa PREFIX/share/almanac/data
    The bundled datasets and their
    .Pa README.md ,
    where
    .Ql make install
    put them (PREFIX is the folder above the binary's own
    .Pa bin ,
    found through symbolic links).
    The data folder is the first of:
    .Fl -data ,
    .Ev ALMANAC_DATA ,
    this folder, and the
    .Pa Data
    folder of the checkout almanac was built in;
    .Ic about
    and
    .Ic datasets
    say which is in use.
    .It Pa PREFIX/libexec/almanac/almanac-fetch
    The helper that fetches http(s) URLs, so that the shell itself never loads the network libraries.
    .It Pa PREFIX/share/bash-completion/completions/almanac , Pa PREFIX/share/zsh/site-functions/_almanac , Pa PREFIX/share/fish/vendor_completions.d/almanac.fish
    Completion of the command line for bash, zsh and fish.
    .El
    """#

    static let exitStatus = #"""
    .Bl -tag -width Ds -compact
    .It 0
    Every command succeeded (a session at the prompt that ends with
    .Ic quit
    or Ctrl-D included).
    .It 1
    A command failed, or the output could not be written.
    .It 2
    The command line was wrong.
    .It 128 + Ar N
    Ended by signal
    .Ar N
    (130: Ctrl-C in a script); the history is saved first.
    .El
    """#

    /// What a person would type in their shell, with what it does.
    static let examples = [
        ("Open the prompt on the bundled datasets:", "almanac"),
        ("Count the countries, from a script:", "almanac -c 'use countries' -c count"),
        ("The names of the countries whose name contains \"united\", as JSON for jq:",
         "almanac --format json -c 'use countries' -c 'search united' | jq '.[].name'"),
        ("Commands piped in, one per line:",
         #"printf 'use species\nfilter classification = mammal and average_lifespan > 100\n' | almanac"#),
        ("Europe's countries written to a CSV file, stopping at the first error:",
         "almanac --bail -c 'use countries' -c 'filter region = Europe' -c 'export europe.csv'"),
        ("A dataset loaded over HTTP, its pages followed:",
         "almanac -c 'load species from https://swapi.dev/api/species/' -c 'use species' -c count"),
        ("A CSV file (delimiter, header and column types sniffed), grouped by a column:",
         "almanac -c 'load sales from sales.csv' -c 'use sales' -c 'group region sum amount'"),
        ("An API's answer whose records sit under data.items, found by their number:",
         "almanac -c 'load issues from issues.json at data.items key number' -c 'use issues' -c 'show 28'"),
    ].map { MDoc.text($0.0) + "\n" + MDoc.literal(["$ " + $0.1]) }.joined(separator: "\n.Pp\n")

    static let seeAlso = #"""
    .Xr jq 1 ,
    .Xr less 1 ,
    .Xr psql 1 ,
    .Xr sqlite3 1
    .Pp
    The formats, sources, licences and messy parts of the data:
    .Pa PREFIX/share/almanac/data/README.md .
    """#

    /// From AlmanacVersion, as `about` and `--version` say it.
    static var authors: String { "almanac \(AlmanacVersion.current) is written by \(AlmanacVersion.author)." }
}
