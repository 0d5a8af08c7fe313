import Foundation
import PostgresCluster

/// The statements a script ran on a table, read from the test cluster's log: almanac connects
/// as a role whose statements the server logs (log_min_duration_statement = 0), so the log
/// holds these runs' alone.
enum LoggedStatements {
    static let role = "almanac_logged"

    /// Runs `commands` after attaching `table` as `t`; returns the run and the text of each
    /// statement executed on the table (with a WHERE or not), in order.
    static func run(_ commands: [String], table: String, in home: TemporaryHome) throws -> (PipeResult, [String]) {
        let cluster = try Database.cluster()
        try cluster.once("logged role") {
            try cluster.execute("""
                CREATE ROLE \(role) LOGIN; GRANT pg_read_all_data TO \(role);
                ALTER ROLE \(role) SET log_min_duration_statement = 0
                """)
        }
        let log = cluster.folder + "/data/server.log"
        let before = (try? Data(contentsOf: URL(fileURLWithPath: log)).count) ?? 0
        let url = try Database.url(table, user: role)
        let result = try PipeRun.run(["--no-rc"] + (["load t from \(url)", "use t"] + commands).flatMap { ["-c", $0] },
                                     environment: home.environment(), directory: home.root)
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: log)).dropFirst(before), as: UTF8.self)
        let ran = text.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "execute <unnamed>: "), line.contains("\"\(table)\" AS t") else { return nil }
            return String(line[range.upperBound...])
        }
        return (result, ran)
    }
}
