/// Where a bundled dataset comes from and under which licence (see Data/README.md).
public struct DataSource: Sendable, Equatable {
    public var dataset: String
    public var file: String
    public var origin: String
    public var licence: String

    public static let bundled: [DataSource] = [
        DataSource(dataset: "countries", file: "countries.json",
                   origin: "REST Countries project (apilayer/restcountries, countriesV2.json)", licence: "MPL-2.0"),
        DataSource(dataset: "species", file: "species.json",
                   origin: "SWAPI (phalt/swapi fixtures, in the API's JSON shape)", licence: "BSD-3-Clause"),
        DataSource(dataset: "planets", file: "planets.json",
                   origin: "SWAPI (phalt/swapi fixtures)", licence: "BSD-3-Clause"),
        DataSource(dataset: "people", file: "people.json",
                   origin: "SWAPI (phalt/swapi fixtures)", licence: "BSD-3-Clause"),
        DataSource(dataset: "stations", file: "stations.json",
                   origin: "tutu.ru mobile test task (allStations.json)", licence: "published as test-task data"),
        // Not a dataset: the country outlines `map` draws over.
        DataSource(dataset: "outlines", file: "world.geojson",
                   origin: "Natural Earth 1:110m Admin 0 countries (geopandas' naturalearth_lowres), for map", licence: "public domain"),
    ]
}
