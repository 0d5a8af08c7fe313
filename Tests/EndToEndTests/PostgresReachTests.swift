import Foundation
import PostgresCluster
import Testing

/// `reach` on an attached table of countries follows the table's own borders (read once: the
/// table is small) and answers as `reach` over the same records in memory: the same rows in the
/// same order with the same distances, which sort, filter and group read in the database. A
/// table too big to be one of countries is refused with its size.
@Suite("PostgreSQL: reach over a table's borders answers as in memory")
struct PostgresReachTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    func run(_ lines: [String]) throws -> PipeResult {
        try PipeRun.run(["--no-rc", "--format", "csv"], input: lines.joined(separator: "\n") + "\n",
                        environment: home.environment(), directory: home.root)
    }

    @Test("reach Austria 2, China 3, Spain 1: memory and table alike")
    func countries() throws {
        let (file, url) = try Database.exported("countries", as: "reach_countries", in: home)
        let script = ["columns name, distance", "reach Austria 2", "page", "count", "reach CHN 3", "count", "sort distance desc",
                      "page", "filter distance = 1", "count", "group region", "reach Spain 1", "page"]
        let memory = try run(["use countries"] + script)
        let database = try run(["load d from \(url)", "use d"] + script)
        #expect(memory.status == 0 && memory.stderr.isEmpty, "\(memory)")
        #expect(database.status == 0 && database.stderr.isEmpty, "\(database)")
        #expect(memory.stdout == database.stdout, "memory:\n\(memory.stdout)\ndatabase:\n\(database.stdout)")
        // A file copy of the countries, under another name, has their shape and answers alike.
        let copy = try run(["load d from \(file)", "use d"] + script)
        #expect(copy.status == 0 && copy.stderr.isEmpty, "\(copy)")
        #expect(copy.stdout == memory.stdout, "memory:\n\(memory.stdout)\ncopy:\n\(copy.stdout)")
        // Breadth-first search over countries.json's borders, either side naming one (python3):
        // 20 countries within 2 of Austria, first Czech Republic, Germany, Hungary, Italy at 1;
        // 46 within 3 of China, 16 of them neighbours; Spain's 5 neighbours.
        let output = database.stdout
        #expect(output.contains("name,distance\nCzech Republic,1\nGermany,1\nHungary,1\nItaly,1\n"), "\(output)")
        #expect(output.contains("count\n20\n") && output.contains("count\n46\n") && output.contains("count\n16\n"), "\(output)")
        #expect(output.hasSuffix("name,distance\nAndorra,1\nFrance,1\nGibraltar,1\nMorocco,1\nPortugal,1\n"), "\(output)")
    }

    @Test("reach's ties come by name, in memory and on a table with or without a key")
    func tiesByName() throws {
        let (_, url) = try Database.exported("countries", as: "reach_ties", in: home)
        try Database.cluster().execute(#"""
            DROP TABLE IF EXISTS reach_ties_keyed;
            CREATE TABLE reach_ties_keyed AS SELECT * FROM reach_ties;
            ALTER TABLE reach_ties_keyed ADD PRIMARY KEY ("alpha3Code");
            """#)
        // Breadth-first over countries.json's borders, then by name as sort folds it: a keyed
        // table's rows come in code order (CHE before CZE), the file's in its own.
        let distances = try GeographyCommandTests.distances(from: "AUT")
        let names = try GeographyCommandTests.countries().map { ($0["alpha3Code"] as! String, $0["name"] as! String) }
        func folded(_ name: String) -> String { name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil) }
        let expected = names.compactMap { code, name in distances[code].flatMap { (1...2).contains($0) ? (name, $0) : nil } }
            .sorted { ($0.1, folded($0.0)) < ($1.1, folded($1.0)) }
        #expect(expected.count == 20 && expected.last?.0 == "Vatican City", "\(expected)")
        let listing = "name,distance\n" + expected.map { "\($0.0),\($0.1)\n" }.joined()
        let script = ["columns name, distance", "reach Austria 2", "page"]
        for setup in [["use countries"], ["load d from \(url)", "use d"], ["load d from \(try Database.url("reach_ties_keyed"))", "use d"]] {
            let result = try run(setup + script)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
            #expect(result.stdout == listing, "\(setup)\n\(result.stdout)")
        }
    }

    @Test("a dataset in memory with the countries' shape, whatever its name, answers reach and path over its own borders")
    func ownCountries() throws {
        // A chain Aland – Bland – Cland, each border named on one side only, and Dland alone.
        let file = try home.write("""
            [{"name": "Aland", "alpha3Code": "AAA", "borders": ["BBB"]},
             {"name": "Bland", "alpha3Code": "BBB", "borders": []},
             {"name": "Cland", "alpha3Code": "CCC", "borders": ["BBB"]},
             {"name": "Dland", "alpha3Code": "DDD", "borders": []}]
            """, to: home.root + "/lands.json")
        let result = try run(["load lands from \(file)", "use lands", "columns name, distance", "reach Aland 2", "page",
                              "path Aland Cland"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        #expect(result.stdout == """
            name,distance
            Bland,1
            Cland,2
            step,name,alpha3Code,region
            0,Aland,AAA,
            1,Bland,BBB,
            2,Cland,CCC,

            """, "\(result.stdout)")
    }

    @Test("a table of over 100,000 rows is refused with its size, one without borders says so")
    func refusals() throws {
        let cluster = try Database.cluster()
        try cluster.execute("""
            DROP TABLE IF EXISTS reach_many;
            CREATE TABLE reach_many AS SELECT 'C' || i AS name, 'C' || i AS "alpha3Code", '[]'::jsonb AS borders
                FROM generate_series(1, 100001) AS i;
            """)
        let many = try run(["load d from \(try Database.url("reach_many"))", "use d", "reach Austria 1"])
        #expect(many.status != 0 && many.stderr.contains("d has 100,001 rows (more than 100,000)"), "\(many)")
        _ = try Database.exported("planets", as: "reach_planets", in: home)
        let planets = try run(["load d from \(try Database.url("reach_planets"))", "use d", "reach Austria 1"])
        #expect(planets.status != 0 && planets.stderr.contains("and d has no alpha3Code"), "\(planets)")
    }

    @Test("reach and path on a table of one's own countries look names up in that table, as in a file of them")
    func namesFromTheTable() throws {
        _ = try Database.exported("countries", as: "reach_lands_source", in: home)
        // Austria renamed, and Åland under a name and code the bundled countries do not know.
        try Database.cluster().execute(#"""
            DROP TABLE IF EXISTS reach_lands;
            CREATE TABLE reach_lands AS SELECT * FROM reach_lands_source;
            UPDATE reach_lands SET name = 'Ostmark' WHERE "alpha3Code" = 'AUT';
            UPDATE reach_lands SET name = 'Aland', "alpha3Code" = 'ALX' WHERE "alpha3Code" = 'ALA';
            """#)
        let url = try Database.url("reach_lands")
        let file = home.root + "/lands.json"
        let copied = try run(["load lands from \(url)", "use lands", "export \(file)"])
        #expect(copied.status == 0, "\(copied)")
        let script = ["columns name, distance", "reach Ostmark 1", "page", "reach Aland 1", "path Ostmark Spain"]
        let memory = try run(["load d from \(file)", "use d"] + script)
        let database = try run(["load d from \(url)", "use d"] + script)
        let neighbours = try GeographyCommandTests.distances(from: "AUT").filter { $0.value == 1 }.count
        #expect(neighbours == 8)
        #expect(memory.stdout.hasPrefix("name,distance\nCzech Republic,1\nGermany,1\n"), "\(memory)")
        #expect(memory.stdout.contains("step,name,alpha3Code,region\n0,Ostmark,AUT,Europe\n"), "\(memory)")
        #expect(memory.stdout.hasSuffix(",Spain,ESP,Europe\n"), "\(memory)")
        #expect(memory.stderr == "no records — Aland borders no country over land\n" && memory.status == 0, "\(memory)")
        #expect(database.stdout == memory.stdout && database.stderr == memory.stderr && database.status == 0,
                "memory:\n\(memory)\ndatabase:\n\(database)")
    }
    @Test("a table of countries is read once for the geography commands after it, and again once attached again")
    func countriesReadOnce() throws {
        _ = try Database.exported("countries", as: "reach_once", in: home)
        let again = "load t from \(try Database.url("reach_once", user: LoggedStatements.role))"
        let (result, statements) = try LoggedStatements.run(["reach Austria 1", "count", "reach Spain 1", "count", "path Spain Austria",
                                                             again, "use t", "reach Austria 2", "count"], table: "reach_once", in: home)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        // Breadth-first over countries.json's borders: Austria's neighbours, Spain's, those within 2 of Austria.
        let austria = try GeographyCommandTests.distances(from: "AUT")
        let spain = try GeographyCommandTests.distances(from: "ESP")
        let counts = [austria.values.filter { $0 == 1 }.count, spain.values.filter { $0 == 1 }.count, austria.values.filter { (1...2).contains($0) }.count]
        #expect(counts == [8, 5, 20])
        #expect(result.stdout.split(separator: "\n").filter { Int($0) != nil } == counts.map { "\($0)"[...] }, "\(result.stdout)")
        // Every row read (no WHERE): once by the first reach, once after the table was attached again.
        let wholeReads = statements.filter { $0.hasPrefix("SELECT row_to_json(t.*)") && !$0.contains("WHERE") }
        #expect(wholeReads.count == 2, "\(statements.joined(separator: "\n"))")
    }
}
