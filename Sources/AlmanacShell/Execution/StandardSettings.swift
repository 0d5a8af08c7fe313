import AlmanacCore

extension SettingTable {
    /// Every setting, in the order `set` lists them: one declaration each.
    public static let standard = SettingTable.with(formats: OutputFormat.all)

    /// The standard settings, `format` taking one of `formats`.
    public static func with(formats: [OutputFormat]) -> SettingTable {
        let names = formats.map(\.name)
        return SettingTable([
            Setting("format", values: names.joined(separator: "|"), choices: names,
                    help: "how results are written: table and expanded for people, the others for programs and files.",
                    read: { $0.format.name },
                    write: { settings, text throws(ShellError) in
                        guard let format = formats.first(where: { $0.name == text.lowercased() }) else {
                            throw .invalid("format must be one of \(names.joined(separator: ", ")), not '\(SafeText.escape(text))'")
                        }
                        settings.format = format
                    }),
            Setting("pagesize", values: "N|auto", choices: ["auto"],
                    help: "rows per page, from 1 to 1,000,000, or auto (the terminal's height; everything when output is not a terminal).",
                    read: { $0.pageSize.map(String.init) ?? "auto" },
                    write: { settings, text throws(ShellError) in
                        // One rule: 1 to 1,000,000 rows, or auto. (0 is not a silent alias of auto.)
                        if text.lowercased() == "auto" { settings.pageSize = nil; return }
                        guard let size = Int(text), (1...1_000_000).contains(size) else {
                            throw .invalid("pagesize must be a whole number from 1 to 1,000,000, or auto — not '\(SafeText.escape(text))'")
                        }
                        settings.pageSize = size
                    }),
            .onOff("color", \.color, aliases: ["colour"], help: "colours in tables and at the prompt (off with NO_COLOR or --no-color)."),
            .onOff("pager", \.pager, help: "long answers at the prompt page through $PAGER (less)."),
            .onOff("hints", \.hints, help: "the rest of a matching history line, dimmed after the cursor."),
            .onOff("highlight", \.highlight, help: "colours as you type (off without colour)."),
            Setting("maxpages", values: "N", help: "how many pages a load from a URL follows.",
                    read: { String($0.fetchBounds.maximumPages) },
                    write: { settings, text throws(ShellError) in
                        guard let pages = Int(text), pages >= 1, pages <= 1_000_000 else {
                            throw .invalid("maxpages must be a whole number from 1 to 1000000 — not '\(SafeText.excerpt(text))'")
                        }
                        settings.fetchBounds.maximumPages = pages
                    }),
            Setting("maxbytes", values: "SIZE", help: "how much a load from a URL reads in all: sizes like 64M or 2G, from 1K to 1024G.",
                    read: { Settings.sizeText($0.fetchBounds.maximumBytes) },
                    write: { settings, text throws(ShellError) in
                        guard let bytes = Settings.size(text.lowercased()), bytes >= 1 << 10, bytes <= 1 << 40 else {
                            throw .invalid("maxbytes is a size from 1K to 1024G, like 64M or 2G — not '\(SafeText.excerpt(text))'")
                        }
                        settings.fetchBounds.maximumBytes = bytes
                    }),
            .choice("expanded", \.expanded,
                    help: "on: one line per field for each record; off; auto: expanded when a table is wider than the terminal."),
            .onOff("timer", \.timer, help: "each command's time on standard error."),
            .onOff("echo", \.echo, help: "in a script, the results listed after every command that shapes them, not only the last (--echo)."),
        ])
    }
}
