import Foundation
import Testing

/// Loading from the network through the binary (HTTPLoadingTests covers the fetcher itself):
/// only http and https, redirects included; credentials in a URL never printed back, on a
/// pipe or on a terminal, in errors, listings or verbose summaries.
@Suite("Network loads through the binary")
struct NetworkSafetyTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    func run(_ commands: [String], verbose: Bool = false) throws -> PipeResult {
        try PipeRun.run(["--no-rc"] + (verbose ? ["--verbose"] : []) + commands.flatMap { ["-c", $0] },
                        environment: home.environment(), directory: home.root, timeout: .seconds(60))
    }

    @Test("ftp:// and other schemes are refused with one clear error", arguments: [
        "ftp://127.0.0.1/species.json", "FTP://127.0.0.1/x", "file:///etc/passwd", "gopher://127.0.0.1/", "ftp://user:pw@127.0.0.1/x",
    ])
    func otherSchemes(url: String) throws {
        let result = try run(["load x from \(url)", "datasets"])
        #expect(result.status == 1, "\(result)")
        let errors = result.stderr.lines
        #expect(errors.count == 1 && errors[0].hasPrefix("-c:1: "), "one error line\n\(result)")
        #expect(errors.first?.contains("http") == true, "the error says what is accepted\n\(result)")
        #expect(!result.stdout.contains("\nx "), "no dataset x was made\n\(result)")
        #expect(!result.stderr.contains(":pw@") && !result.stdout.contains(":pw@"))
    }

    @Test("a CSV or TSV URL loads as a file does, its Content-Type or extension saying which")
    func delimitedURLs() throws {
        let server = try SWAPIServer.get()
        let data = try Data(contentsOf: URL(fileURLWithPath: DataFolder.realFile("species")))
        let species = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        let reptilian = species.filter { $0["designation"] as? String == "reptilian" }.count
        let tallest = species.compactMap { Int($0["average_height"] as? String ?? "") }.max() ?? 0
        for path in ["/species-table", "/species.csv", "/species.tsv"] {
            let result = try run(["load t from \(server.url(path))", "use t", "count", "filter designation = reptilian", "count",
                                  "filter clear", "set format tsv", "sort height desc", "columns height", "limit 1"])
            #expect(result.status == 0, "\(path): \(result)")
            #expect(result.stdout.lines == ["\(species.count)", "\(reptilian)", "height", "\(tallest)"], "\(path): \(result)")
        }
    }

    @Test("a redirect to ftp:// is refused")
    func redirectToFTP() throws {
        let server = try SWAPIServer.get()
        let result = try run(["load x from \(server.url("/redirect-ftp/"))", "datasets x"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("refused a redirect"), "\(result)")
        #expect(result.stdout.contains("failed"), "\(result)")
    }

    @Test("a redirect to another scheme is refused however it is written", arguments: [
        "file:///etc/passwd", "ftp:///", "FILE:/", "ftp://127.0.0.1/x", " file:///etc/passwd", "fi\tle:/x", "gopher:x", "FiLe://localhost/etc/passwd",
    ])
    func redirectToOtherSchemes(location: String) throws {
        let server = try SWAPIServer.get()
        let escaped = location.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? location
        let result = try run(["load x from \(server.url("/redirect-to/?location=\(escaped)"))"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.lines.first?.contains("refused a redirect to a non-http(s) URL") == true, "\(location): \(result)")
    }

    @Test("a 'results' that is not a list says so")
    func resultsNotAList() throws {
        let server = try SWAPIServer.get()
        for (path, found) in [("/results-object/", "an object"), ("/results-null/", "null")] {
            let result = try run(["load x from \(server.url(path))"])
            #expect(result.status == 1)
            #expect(result.stderr.lines.first == "x: load failed: \(server.url(path)): page 1: 'results' should be a list of records; found \(found)",
                    "\(result)")
        }
    }

    @Test("pages are bounded (set maxpages): the load keeps what it read and says it stopped")
    func pagesBounded() throws {
        let server = try SWAPIServer.get()
        let result = try run(["set maxpages 3", "load x from \(server.url("/endless-pages/"))", "use x", "count"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "3\n", "\(result)")
        #expect(result.stderr == "x: 1 warning — stopped after 3 pages, the limit for one load ('set maxpages' raises it): "
                + "the source has more, \(server.url("/endless-pages/?page=4")) was not read\n", "\(result)")
        let refused = try run(["set maxpages 0"])
        #expect(refused.stderr == "-c:1:14: maxpages must be a whole number from 1 to 1000000 — not '0'\n", "\(refused)")
    }

    @Test("a declared count the pages contradict is a warning")
    func countContradicted() throws {
        let server = try SWAPIServer.get()
        let records = try JSONSerialization.jsonObject(with: Data(DataFolder.realContents("species"))) as? [Any]
        let result = try run(["load x from \(server.url("/count-wrong/"))", "use x", "count"])
        #expect(result.stdout == "\(records?.count ?? -1)\n", "\(result)")
        #expect(result.stderr == "x: 1 warning — the source declares 82 records ('count'), but its 4 pages held 37\n", "\(result)")
    }

    @Test("the bound on bytes: one response over it, or pages that add up to more, say the real bound")
    func bytesBounded() throws {
        let server = try SWAPIServer.get()
        // Each page of 10 species is 4 to 6 KB.
        let pages = try run(["set maxbytes 8K", "load x from \(server.url("/species/"))"])
        #expect(pages.stderr.lines.first == "x: load failed: \(server.url("/species/?page=2")): "
                + "the pages add up to more than the 8 KiB limit for one load: page 2 went past it", "\(pages)")
        let declared = try run(["load x from \(server.url("/huge-length/"))"])
        #expect(declared.stderr.lines.first == "x: load failed: \(server.url("/huge-length/")): "
                + "the response is larger than the 1 GiB limit (it declares 10,737,418,240 bytes)", "\(declared)")
    }

    @Test("a declared length past what the machine holds is refused at once, whatever maxbytes allows")
    func declaredLengthPastTheMachine() throws {
        let server = try SWAPIServer.get()
        let url = server.url("/declared-length/?bytes=900000000000")
        let result = try run(["set maxbytes 1024G", "load x from \(url)", "use countries", "count"])
        // Reserving the declared 900 GB up front killed the shell (issue 31).
        #expect(result.status == 1 && result.stdout == "250\n", "\(result)")
        #expect(result.stderr.lines.first?.hasPrefix("x: load failed: \(url): the response is larger than this machine can hold "
            + "(it declares 900,000,000,000 bytes, over ") == true, "\(result)")
    }

    @Test("credentials in a URL are never printed: errors, datasets, reloads, verbose summaries")
    func credentialsOnPipes() throws {
        let server = try SWAPIServer.get()
        for (path, verbose) in [("/missing/", false), ("/missing/", true), ("/broken/", true), ("/species/", true), ("/nothing-here/", false)] {
            let url = server.url(path, credentials: "user:secret")
            let result = try run(["load x from \(url)", "datasets", "datasets x", "load x", "use x", "count"], verbose: verbose)
            #expect(!result.stdout.contains("secret") && !result.stderr.contains("secret"), "\(path): \(result)")
            #expect(!result.stdout.contains("user:") && !result.stderr.contains("user:"), "\(path): \(result)")
            #expect(result.stdout.contains("127.0.0.1:\(server.port)"), "the URL is shown, without them: \(result)")
        }
        // Unreachable and malformed ones too.
        for url in ["http://user:secret@127.0.0.1:1/species/", "http://user:secret@127.0.0.1:99999/", "http://user:secret@[bad/",
                    "https://user:secret@127.0.0.1:1/"] {
            let result = try run(["load x from \(url)", "datasets"])
            #expect(!result.stdout.contains("secret") && !result.stderr.contains("secret"), "\(url): \(result)")
        }
    }

    @Test("credentials are never shown on a terminal either: progress, messages, datasets")
    func credentialsOnTerminal() throws {
        let server = try SWAPIServer.get()
        let session = try PseudoTerminalSession(["--no-rc"], environment: home.environment(), rows: 24, columns: 200)
        try session.waitForPrompt()
        for path in ["/species/", "/missing/", "/broken/"] {
            let line = "load x\(path.dropFirst().dropLast()) from \(server.url(path, credentials: "user:secret"))"
            try session.sendLine(line)
            try session.waitFor(line + "\n")
            let shown = try session.waitFor(session.currentPrompt, timeout: .seconds(30))
            try session.waitUntilReady()
            #expect(!shown.contains("secret"), "\(path): \(shown.visible)")
        }
        let listed = try session.enter("datasets")
        #expect(!listed.contains("secret") && listed.contains("127.0.0.1:\(server.port)/species/"), "\(listed.visible)")
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0)
    }
}
