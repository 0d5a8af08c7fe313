import Foundation

/// almanac installed through the Makefile into a prefix inside a temporary home: `make
/// install-files` (what `make install` does after its release build) with the binaries under
/// test, so the suite pays for no second build.
struct Installation {
    let home: TemporaryHome
    let prefix: String
    let destdir: String?

    /// Installs into `prefix` (default: a new folder in the home) under `destdir`.
    init(home: TemporaryHome? = nil, prefix: String? = nil, destdir: String? = nil) throws {
        let home = try home ?? TemporaryHome()
        self.home = home
        self.prefix = prefix ?? home.root + "/prefix"
        self.destdir = destdir
        let result = try make("install-files", "BUILT=" + Self.builtFolder)
        guard result.status == 0 else { throw HarnessError("make install-files failed: \(result.status)\n\(result.stderr)") }
    }

    /// The folder with the almanac and almanac-fetch under test.
    static var builtFolder: String { URL(fileURLWithPath: AlmanacBinary.path).deletingLastPathComponent().path }

    /// Where the installed files are on disk.
    var root: String { (destdir ?? "") + prefix }

    /// Runs `make TARGET` in the package with this prefix and destdir.
    func make(_ target: String, _ variables: String...) throws -> ShellCommand.Result {
        var words = ["make", "-s", "-C", PackageRoot.path, target, "PREFIX=" + prefix]
        if let destdir { words.append("DESTDIR=" + destdir) }
        words += variables
        return try ShellCommand.run(words.map(ShellCommand.quote).joined(separator: " "),
                                    environment: home.environment(), directory: home.root)
    }

    /// Runs the installed almanac with `arguments` in `directory`, as a user whose environment
    /// names no data folder and no helper.
    func run(_ arguments: [String], in directory: String) throws -> ShellCommand.Result {
        let command = ([root + "/bin/almanac"] + arguments).map(ShellCommand.quote).joined(separator: " ")
        return try ShellCommand.run(command + " </dev/null",
                                    environment: home.environment().without("ALMANAC_DATA").without("ALMANAC_FETCH"),
                                    directory: directory)
    }
}

/// Every path below a folder with what it is, to tell that a folder is as it was.
enum FolderTree {
    /// `path/` for a folder, `path (N bytes)` for anything else; sorted.
    static func snapshot(_ root: String) -> [String] {
        entries(root).map { $0.isFolder ? $0.path + "/" : "\($0.path) (\($0.size) bytes)" }
    }

    /// The files below `root` (not folders), relative to it, sorted.
    static func files(_ root: String) -> [String] {
        entries(root).filter { !$0.isFolder }.map(\.path)
    }

    private static func entries(_ root: String) -> [(path: String, isFolder: Bool, size: Int)] {
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        var entries: [(path: String, isFolder: Bool, size: Int)] = []
        while let path = enumerator.nextObject() as? String {
            let attributes = try? FileManager.default.attributesOfItem(atPath: root + "/" + path)
            entries.append((path, attributes?[.type] as? FileAttributeType == .typeDirectory, attributes?[.size] as? Int ?? 0))
        }
        return entries.sorted { $0.path < $1.path }
    }
}
