import AlmanacPostgres
import Foundation
import PostgresCluster

/// The run's throwaway PostgreSQL cluster (PostgresCluster), as the end-to-end tests use it:
/// URLs for almanac's command lines, and the few tables they need, made once per run.
enum Database {
    static func cluster() throws -> TestCluster { try TestCluster.shared() }

    /// A bundled dataset exported by almanac into a JSON file in `home` (named after the table:
    /// one test may export a dataset twice) and into `table`: the same records to load in
    /// memory and to attach (file, URL), for a differential test.
    static func exported(_ dataset: String, as table: String, in home: TemporaryHome) throws -> (file: String, url: String) {
        let url = try url(table)
        let file = home.root + "/\(table).json"
        let exported = try PipeRun.run(["--no-rc", "-c", "use \(dataset)", "-c", "export \(file)", "-c", "export \(url) --force"],
                                       environment: home.environment(), directory: home.root)
        guard exported.status == 0 else { throw HarnessError("exporting \(dataset) failed: \(exported)") }
        return (file, url)
    }

    /// `postgresql://postgres@127.0.0.1:PORT/almanac?table=TABLE[&extra]`.
    static func url(_ table: String, user: String = "postgres", password: String? = nil, extra: String? = nil) throws -> String {
        try cluster().url(table: table, user: user, password: password) + (extra.map { "&" + $0 } ?? "")
    }

    /// `slow`: a view of 100,000 indexed rows whose rows past the 300th wait 60 s in
    /// pg_sleep: `count` on it runs until cancelled, while attaching it (which samples 200
    /// rows) and `filter id < 4` (an index scan) are quick.
    static func slowView() throws {
        try cluster().once("slow view") {
            try cluster().execute("""
                CREATE TABLE slow_rows AS SELECT i AS id, 'slow ' || i AS name FROM generate_series(1, 100000) AS i;
                ALTER TABLE slow_rows ADD PRIMARY KEY (id);
                ANALYZE slow_rows;
                CREATE VIEW slow AS SELECT id, name FROM slow_rows WHERE id <= 300 OR (SELECT pg_sleep(60)) IS NULL
                """)
        }
    }

    /// Rows of `sql` (trusted, one column) as text, through the superuser's connection.
    static func column(_ sql: String) throws -> [String?] { try cluster().admin.query(SQL(sql)).column(0) }

    /// Ends the server processes serving connections that named themselves `application`.
    static func terminate(application: String) throws -> Int {
        var sql = SQL("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = ")
        sql.bind(application)
        return Int(try cluster().admin.query(sql).scalar ?? "0") ?? 0
    }
}
