import Foundation
import Testing

/// `make install` / `make uninstall`: the installed almanac works from any folder with its own
/// data and helper, staging under DESTDIR puts everything there, and uninstalling leaves the
/// prefix as it was. (The tests install the binaries under test through `make install-files`,
/// which is `make install` after its release build: the release ones in `make test`, the debug
/// ones under a bare `swift test`.)
@Suite("make install")
struct InstallTests {
    /// The number of records in a bundled JSON array file, counted here.
    func recordCount(_ dataset: String) throws -> Int {
        let records = try JSONSerialization.jsonObject(with: Data(DataFolder.realContents(dataset))) as? [Any]
        return try #require(records).count
    }

    /// Data/'s files, which the install copies.
    var dataFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: PackageRoot.path + "/Data")) ?? [])
            .filter { !$0.hasPrefix(".") }.sorted()
    }

    /// What an install puts under its prefix, relative to it.
    var installedFiles: [String] {
        ([
            "bin/almanac", "libexec/almanac/almanac-fetch", "share/man/man1/almanac.1",
            "share/bash-completion/completions/almanac", "share/zsh/site-functions/_almanac",
            "share/fish/vendor_completions.d/almanac.fish", "share/almanac/installed",
        ] + dataFiles.map { "share/almanac/data/" + $0 }).sorted()
    }

    @Test("the installed almanac counts the countries from another folder, with the data installed beside it")
    func installedAlmanacFindsItsData() throws {
        let install = try Installation()
        let elsewhere = try install.home.makeFolder("elsewhere")
        let count = try install.run(["-c", "use countries", "-c", "count"], in: elsewhere)
        #expect(count.status == 0 && count.stderr.isEmpty, "\(count.stderr)")
        #expect(count.stdout == "\(try recordCount("countries"))\n")

        let line = "data: \(install.prefix)/share/almanac/data (installed with almanac)"
        let about = try install.run(["-c", "about", "-c", "datasets"], in: elsewhere)
        #expect(about.status == 0, "\(about.stderr)")
        #expect(about.stdout.lines.filter { $0 == line }.count == 2, "about and datasets name the folder:\n\(about.stdout)")

        // The installed data are copies of Data/'s files, README included.
        #expect(dataFiles.contains("README.md") && dataFiles.contains("countries.json"))
        for name in dataFiles {
            let installed = FileManager.default.contents(atPath: install.root + "/share/almanac/data/" + name)
            #expect(installed == FileManager.default.contents(atPath: PackageRoot.path + "/Data/" + name), "\(name) differs")
        }
    }

    @Test("--data and $ALMANAC_DATA still win over the installed data")
    func optionAndVariableWin() throws {
        let install = try Installation()
        let folder = try install.home.makeFolder("mine")
        let viaOption = try install.run(["--data", folder, "-c", "about"], in: install.home.root)
        #expect(viaOption.stdout.lines.contains("data: \(folder) (--data)"), "\(viaOption.stdout)")
        let command = [install.root + "/bin/almanac", "-c", "about"].map(ShellCommand.quote).joined(separator: " ")
        let viaVariable = try ShellCommand.run(command, environment: install.home.environment().with("ALMANAC_DATA", folder),
                                               directory: install.home.root)
        #expect(viaVariable.stdout.lines.contains("data: \(folder) ($ALMANAC_DATA)"), "\(viaVariable.stdout)")
    }

    @Test("the installed almanac loads an http URL through the helper installed in libexec")
    func installedAlmanacFetchesThroughItsHelper() throws {
        let server = try SWAPIServer.get()
        let install = try Installation()
        #expect(!FileManager.default.fileExists(atPath: install.root + "/bin/almanac-fetch"))
        let load = try install.run(["-c", "load webspecies from \(server.url("/species/"))", "-c", "use webspecies", "-c", "count"],
                                   in: install.home.root)
        #expect(load.status == 0 && load.stderr.isEmpty, "\(load.stderr)")
        #expect(load.stdout == "\(try recordCount("species"))\n")

        // Without it the load fails and says where the helper was looked for.
        try FileManager.default.removeItem(atPath: install.root + "/libexec/almanac/almanac-fetch")
        let failed = try install.run(["-c", "load webspecies from \(server.url("/species/"))"], in: install.home.root)
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("\(install.root)/libexec/almanac/almanac-fetch"), "\(failed.stderr)")
    }

    @Test("make uninstall leaves the prefix as it was: what install wrote and the folders it made go, nothing else")
    func uninstallRestoresThePrefix() throws {
        let home = try TemporaryHome()
        let prefix = home.root + "/usr-local"
        // Someone else's files, and shared folders that already existed (one of them empty).
        try home.write("another tool\n", to: prefix + "/bin/other-tool")
        try FileManager.default.createDirectory(atPath: prefix + "/share/man/man1", withIntermediateDirectories: true)
        let before = FolderTree.snapshot(prefix)

        var install = try Installation(home: home, prefix: prefix)
        #expect(FolderTree.files(prefix) == (installedFiles + ["bin/other-tool"]).sorted())
        install = try Installation(home: home, prefix: prefix)  // installed twice: still removed in one go
        let uninstall = try install.make("uninstall")
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        #expect(FolderTree.snapshot(prefix) == before)

        // A folder the install made stays while someone else has put a file in it.
        _ = try Installation(home: home, prefix: prefix)
        try home.write("#compdef other-tool\n", to: prefix + "/share/zsh/site-functions/_other-tool")
        #expect(try install.make("uninstall").status == 0)
        #expect(FolderTree.snapshot(prefix) == (before + [
            "share/zsh/", "share/zsh/site-functions/", "share/zsh/site-functions/_other-tool (20 bytes)",
        ]).sorted())

        // A prefix the install created goes too.
        let fresh = home.root + "/fresh/prefix"
        let freshInstall = try Installation(home: home, prefix: fresh)
        #expect(try freshInstall.make("uninstall").status == 0)
        #expect(!FileManager.default.fileExists(atPath: home.root + "/fresh"))
    }

    @Test("make uninstall removes only what it installed under PREFIX: never a path outside it, never through a link, never a changed file")
    func uninstallStaysInsideThePrefix() throws {
        let home = try TemporaryHome()
        let prefix = home.root + "/usr-local"
        let install = try Installation(home: home, prefix: prefix)
        // A manifest line naming a file outside the prefix, and one climbing out of it.
        let outside = try home.write("a user's file\n", to: home.root + "/precious.txt")
        let climbing = try home.write("another user's file\n", to: home.root + "/climbing.txt")
        let manifest = prefix + "/share/almanac/installed"
        let record = (home.read(manifest) ?? "") + "file \(outside)\nfile \(prefix)/../climbing.txt\n"
        try home.write(record, to: manifest)
        // The data folder replaced by a link to a user's folder holding files of the same names.
        let userData = try home.makeFolder("my-data")
        for name in dataFiles { try home.write("mine\n", to: userData + "/" + name) }
        try FileManager.default.removeItem(atPath: prefix + "/share/almanac/data")
        try FileManager.default.createSymbolicLink(atPath: prefix + "/share/almanac/data", withDestinationPath: userData)
        // A file changed since it was installed is someone else's now.
        try home.write("edited by hand\n", to: prefix + "/share/fish/vendor_completions.d/almanac.fish")
        let uninstall = try install.make("uninstall")
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        #expect(home.read(outside) == "a user's file\n" && home.read(climbing) == "another user's file\n")
        #expect(FolderTree.files(userData) == dataFiles, "nothing deleted through the link")
        #expect(home.read(prefix + "/share/fish/vendor_completions.d/almanac.fish") == "edited by hand\n")
        #expect(uninstall.stdout.contains("kept") || uninstall.stderr.contains("kept"), "\(uninstall.stdout)\(uninstall.stderr)")
        #expect(!FileManager.default.fileExists(atPath: prefix + "/bin/almanac"))
    }

    @Test("a manifest others can write is not trusted, and the suggested uninstall command is quoted")
    func manifestChecks() throws {
        let home = try TemporaryHome()
        let prefix = home.root + "/with space/usr"
        let install = try Installation(home: home, prefix: prefix)
        let manifest = prefix + "/share/almanac/installed"
        let victim = try home.write("keep me\n", to: home.root + "/victim.txt")
        try home.write((home.read(manifest) ?? "") + "file \(victim)\n", to: manifest)
        chmod(manifest, 0o666)
        let uninstall = try install.make("uninstall")
        #expect(uninstall.stderr.contains("not trusted"), "\(uninstall.stderr)")
        #expect(home.read(victim) == "keep me\n")
        #expect(!FileManager.default.fileExists(atPath: prefix + "/bin/almanac"), "almanac's own files still go")

        let again = try install.make("install-files", "BUILT=" + Installation.builtFolder)
        #expect(again.stdout.contains("make uninstall PREFIX='\(prefix)'"), "\(again.stdout)")
    }

    @Test("a man page or completion another package installed is neither overwritten nor removed")
    func othersPagesStay() throws {
        let home = try TemporaryHome()
        let prefix = home.root + "/usr"
        let page = try home.write(".TH ALMANAC 1 \"another almanac\"\n", to: prefix + "/share/man/man1/almanac.1")
        let install = try Installation(home: home, prefix: prefix)
        #expect(home.read(page) == ".TH ALMANAC 1 \"another almanac\"\n")
        #expect(!(home.read(prefix + "/share/almanac/installed") ?? "").contains("man1/almanac.1"))
        #expect(try install.make("uninstall").status == 0)
        #expect(home.read(page) == ".TH ALMANAC 1 \"another almanac\"\n")
    }

    @Test("make install DESTDIR=… PREFIX=/usr stages every file under DESTDIR, and the staged almanac runs")
    func stagedInstall() throws {
        let home = try TemporaryHome()
        let stage = try home.makeFolder("stage")
        let install = try Installation(home: home, prefix: "/usr", destdir: stage)
        #expect(FolderTree.files(stage) == installedFiles.map { "usr/" + $0 })
        let sources = [
            "bin/almanac": Installation.builtFolder + "/almanac",
            "libexec/almanac/almanac-fetch": Installation.builtFolder + "/almanac-fetch",
            "share/man/man1/almanac.1": PackageRoot.path + "/man/almanac.1",
            "share/bash-completion/completions/almanac": PackageRoot.path + "/completions/almanac.bash",
            "share/zsh/site-functions/_almanac": PackageRoot.path + "/completions/_almanac",
            "share/fish/vendor_completions.d/almanac.fish": PackageRoot.path + "/completions/almanac.fish",
        ]
        for (installed, source) in sources {
            #expect(FileManager.default.contents(atPath: stage + "/usr/" + installed) == FileManager.default.contents(atPath: source),
                    "\(installed) is not a copy of \(source)")
        }
        #expect(FileManager.default.isExecutableFile(atPath: stage + "/usr/libexec/almanac/almanac-fetch"))
        // The record names the final paths, without DESTDIR (each file with its SHA-256).
        let record = home.read(stage + "/usr/share/almanac/installed") ?? ""
        #expect(record.lines.contains { $0.hasPrefix("file /usr/bin/almanac ") } && !record.contains(stage), "\(record)")

        let count = try install.run(["-c", "use countries", "-c", "count"], in: home.root)
        #expect(count.stdout == "\(try recordCount("countries"))\n", "\(count.stderr)")

        #expect(try install.make("uninstall").status == 0)
        #expect(FolderTree.snapshot(stage).isEmpty)
    }
}
