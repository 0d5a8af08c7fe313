import AlmanacPostgres
import Foundation

extension TestCluster {
    /// `kinds`: a small table with a column of every kind almanac reads (text, numbers,
    /// boolean, date, arrays, json, jsonb), NULLs, accents, Cyrillic and quotes; a view on it;
    /// and a table whose schema and name need quoting. Made once per run.
    public func kindsTable() throws {
        try once("kinds") {
            try execute("""
                CREATE TABLE kinds (
                    id integer PRIMARY KEY, name text, city varchar(40), population bigint, score double precision,
                    ratio numeric(6,3), active boolean, born date, tags text[], sizes integer[], info jsonb, notes json
                );
                INSERT INTO kinds VALUES
                    (1, 'Åland', 'Mariehamn', 30000, 1.5, 0.125, true, '2001-02-03', '{island,swedish}', '{1,2}',
                     '{"address": {"city": "Mariehamn", "zip": 22100}, "codes": ["AX", "ALA"], "rank": 3}', '{"a": [1, {"b": "x"}]}'),
                    (2, 'Москва', 'Москва', 13010112, 9.25, 1.5, false, '1147-04-04', '{capital,"big city"}', '{10,20,30}',
                     '{"address": {"city": "Москва", "zip": 101000}, "codes": ["MOW"], "rank": 1}', '{"a": []}'),
                    (3, 'x'' OR ''1''=''1', NULL, NULL, NULL, NULL, NULL, NULL, '{}', NULL, '{"codes": [], "rank": null}', NULL),
                    (4, 'Zürich', 'Zürich', 421878, -2, 0, true, '2020-12-31', '{"quote\\"d",NULL}', '{5}',
                     '{"address": {"city": "Zürich"}, "codes": ["ZRH", 8000], "rank": "2"}', '[1, 2]'),
                    (5, 'aland islands', 'Mariehamn', 30129, 1.5, 0.5, NULL, NULL, '{island}', '{}', '{"rank": 4.5}', '"text"');
                CREATE VIEW kinds_view AS SELECT id, name, population FROM kinds WHERE id < 5;
                CREATE SCHEMA "Sales Data";
                CREATE TABLE "Sales Data"."Orders 2024" ("Order Id" text PRIMARY KEY, "Amount" numeric);
                INSERT INTO "Sales Data"."Orders 2024" VALUES ('A-1', 10.5), ('b-2', 20)
                """)
        }
    }

    /// `big`: 2,000,000 generated rows (made once per run, unlogged: nothing to recover).
    /// Row i has id i, name `item i`, bucket i % 1000, score (i * 7919) % 1000003, category
    /// `c(i % 50)` except every tenth row (NULL), info {"n": i % 100, "tags": ["t(i % 3)"]}.
    public static let bigRows = 2_000_000

    public func bigTable() throws {
        try once("big") {
            try execute("""
                CREATE UNLOGGED TABLE big AS SELECT i AS id, 'item ' || i AS name, i % 1000 AS bucket,
                    (i::bigint * 7919) % 1000003 AS score, CASE WHEN i % 10 = 0 THEN NULL ELSE 'c' || (i % 50) END AS category,
                    jsonb_build_object('n', i % 100, 'tags', jsonb_build_array('t' || (i % 3))) AS info
                FROM generate_series(1, \(Self.bigRows)) AS i;
                ALTER TABLE big ADD PRIMARY KEY (id);
                ANALYZE big
                """)
        }
    }
}
