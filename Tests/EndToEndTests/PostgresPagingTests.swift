import Foundation
import PostgresCluster
import Testing

/// `page next` on a table continues after the last row shown (keyset paging: an index scan on
/// the primary key, whatever the page's depth) instead of counting rows off from the start
/// (`OFFSET`). A person sees it when rows are deleted behind them: nothing shifts into the gap,
/// so no row is skipped. Orders the key does not give (sort, search) still page by position,
/// and stay right at ties and absent values.
@Suite("PostgreSQL: page next continues after the last row shown")
struct PostgresPagingTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
        try Database.cluster().kindsTable()
        try Database.cluster().once("paged") {
            try Database.cluster().execute("""
                CREATE TABLE paged AS SELECT i AS id, 'paged ' || i AS name FROM generate_series(1, 20) AS i;
                ALTER TABLE paged ADD PRIMARY KEY (id)
                """)
        }
    }

    /// The listing's row names, top to bottom, from what the terminal shows.
    func names(_ shown: String, prefix: String) -> [String] {
        shown.visible.split(separator: "\n").compactMap { line in
            line.range(of: prefix + "[0-9]+", options: .regularExpression).map { String(line[$0]) }
        }
    }

    @Test("a row deleted from the page already read moves no unseen row onto it: the next page starts after the last row shown")
    func nextPageContinuesAfterTheLastRowShown() throws {
        let session = try PseudoTerminalSession(["--no-rc"], environment: home.environment(), rows: 24, columns: 120)
        defer { session.close() }
        try session.waitForPrompt()
        try session.enter("set pager off")
        try session.enter("set pagesize 3")
        try session.enter("load paged from \(try Database.url("paged"))")
        try session.enter("use paged", prompt: "paged> ")
        let first = try session.enter("filter id > 10")
        #expect(names(first, prefix: "paged ") == ["paged 11", "paged 12", "paged 13"], "\(first.visible)")
        // Someone else deletes a row the reader has seen.
        try Database.cluster().execute("DELETE FROM paged WHERE id = 12")
        let second = try session.enter("page next")
        #expect(names(second, prefix: "paged ") == ["paged 14", "paged 15", "paged 16"],
                "counting off 3 rows would skip paged 14: \(second.visible)")
        let third = try session.enter("page next")
        #expect(names(third, prefix: "paged ") == ["paged 17", "paged 18", "paged 19"], "\(third.visible)")
        // A jump (not the page after the one shown) counts by position, as it must.
        let fresh = try session.enter("filter clear")
        #expect(names(fresh, prefix: "paged ") == ["paged 1", "paged 2", "paged 3"], "\(fresh.visible)")
        let jump = try session.enter("page 4")
        #expect(names(jump, prefix: "paged ") == ["paged 10", "paged 11", "paged 13"], "\(jump.visible)")
        // A new page size after a page: the next page counts by position too.
        try session.enter("set pagesize 4")
        let resized = try session.enter("page next")
        #expect(names(resized, prefix: "paged ") == ["paged 18", "paged 19", "paged 20"],
                "\(resized.visible)")
    }

    @Test("sorted pages of a table follow the sort through ties and absent values, as in memory")
    func sortedPagesAtTiesAndAbsentValues() throws {
        // kinds' cities: 1 Mariehamn, 2 Москва, 3 (none), 4 Zürich, 5 Mariehamn.
        let url = try Database.url("kinds")
        let result = try PipeRun.run(["--no-rc", "--echo", "--format", "csv"], input: """
            load k from \(url)
            use k
            set pagesize 2
            sort city
            page next
            page next
            sort city desc
            page next
            page next
            """ + "\n", environment: home.environment(), directory: home.root)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        let ids = result.stdout.split(separator: "\n").filter { !$0.hasPrefix("id,") }.map { $0.split(separator: ",")[0] }
        #expect(ids == ["1", "5", "4", "2", "3", "2", "4", "1", "5", "3"], "\(result.stdout)")
    }
}
