import Foundation

/// almanac.1, the manual page: what swift-argument-parser's `generate-manual` makes from the
/// command-line declaration (NAME, SYNOPSIS, DESCRIPTION with every option), followed by
/// `ManualSections`. `make man` runs the generator, then this. Rebuilding a complete page
/// replaces only the sections this adds and the fingerprint of the command line it was made
/// from, so rebuilding the committed page gives it back unchanged exactly when it is current:
/// that is how the test tells.
public enum ManualPage {
    /// The page: `generated` (the generator's page, or an earlier complete one) with the
    /// command language and the rest added, and `commandLine` (the declaration as
    /// `--experimental-dump-help` prints it) fingerprinted in a comment.
    public static func render(generated: String, commands: CommandTable, settings: SettingTable = .standard, commandLine: String) -> String {
        var lines = generated.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last == "" { lines.removeLast() }
        let firstSection = lines.firstIndex { $0.hasPrefix(".Sh ") } ?? lines.count
        var preamble = lines[..<firstSection].filter { !$0.hasPrefix(marker) }
        preamble.insert(
            "\(marker) made by 'make man' from the command line (fingerprint \(fingerprint(of: commandLine))) "
                + "and the command table; edit those, not this.",
            at: preamble.first?.hasPrefix(#".\""#) == true ? 1 : 0)

        var sections: [(title: String, lines: [String])] = []
        for line in lines[firstSection...] {
            if line.hasPrefix(".Sh ") {
                sections.append((title(of: line), [line]))
            } else {
                sections[sections.count - 1].lines.append(line)
            }
        }
        sections.removeAll { ManualSections.titles.contains($0.title) }
        sections = sections.map { ($0.title, withoutHelpSubcommand($0.lines)) }

        let added = ManualSections.all(commands: commands, settings: settings).map { section in
            (title: section.title, lines: [header(section.title), section.body])
        }
        let position = (sections.firstIndex { $0.title == "DESCRIPTION" }).map { $0 + 1 } ?? sections.count
        sections.insert(contentsOf: added, at: position)
        return (preamble + sections.flatMap(\.lines)).joined(separator: "\n") + "\n"
    }

    /// FNV-1a (64 bits) of `text`, in hex: enough to notice any change of the command line.
    public static func fingerprint(of text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Reads the generator's page at `path` and prints the whole page; returns the exit status.
    public static func run(generatedPath: String, commandLine: String) -> Int32 {
        guard let data = FileManager.default.contents(atPath: generatedPath) else {
            FileDescriptorWriter.write("almanac: cannot read \(generatedPath)\n", to: 2)
            return 1
        }
        let page = render(generated: String(decoding: data, as: UTF8.self), commands: .standard, commandLine: commandLine)
        FileDescriptorWriter.write(page, to: 1)
        return 0
    }

    private static let marker = #".\" almanac:"#

    private static func title(of line: String) -> String {
        line.dropFirst(4).trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
    }

    private static func header(_ title: String) -> String {
        title.contains(" ") ? ".Sh \"\(title)\"" : ".Sh \(title)"
    }

    /// ArgumentParser declares a `help` subcommand on every command; almanac has no others, so
    /// the page does not offer `almanac subcommand` (`almanac --help` is listed already).
    private static func withoutHelpSubcommand(_ lines: [String]) -> [String] {
        var result: [String] = []
        var skipping = false
        for line in lines {
            if skipping {
                if line == ".El" { skipping = false }
                continue
            }
            if line == ".It Em help" {
                skipping = true
                continue
            }
            if line == ".Ar subcommand" { continue }
            result.append(line)
        }
        return result
    }
}
