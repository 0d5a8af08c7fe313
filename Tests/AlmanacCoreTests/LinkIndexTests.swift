import Foundation
import Testing
@testable import AlmanacCore

/// The bundled links, followed for real, against the files read by Foundation.
@Suite struct LinkIndexTests {
    static let catalog: Catalog = {
        let catalog = Catalog(preparesIndexes: false)
        for dataset in [RealData.countries, RealData.planets, RealData.people, RealData.species, RealData.stations] {
            catalog.insert(dataset, request: LoadRequest(name: dataset.name, source: .file(path: ""), model: dataset.model))
        }
        return catalog
    }()

    static func index(_ name: String, from dataset: Dataset) throws -> (LinkIndex, Dataset) {
        let link = try #require(catalog.link(name, from: dataset.name))
        let target = try #require(catalog.dataset(link.to))
        return (LinkIndex.of(link, from: dataset, to: target), target)
    }

    @Test("every one of the 4,037 stations finds its country, Молдова's 16 too; Russia has 3,136")
    func everyStationFindsItsCountry() throws {
        let (index, countries) = try Self.index("country", from: RealData.stations)
        #expect(index.linkedRows == 4037)
        #expect(index.targets.count == 4037)
        let moldova = try #require(countries.row(forIdentity: "MDA"))
        #expect(index.targets.filter { Int($0) == moldova }.count == 16)
        let (back, _) = try Self.index("stations", from: RealData.countries)
        let russia = try #require(countries.row(forIdentity: "RUS"))
        #expect(back.targets(of: russia).count == 3136)
        #expect(back.targets.count == 4037)
    }

    @Test("borders resolve all 651 codes; a planet's residents and its people agree (Naboo 11, Tatooine 10)")
    func swapiAndBorders() throws {
        let (borders, countries) = try Self.index("borders", from: RealData.countries)
        #expect(borders.targets.count == 651)
        let norway = try #require(countries.row(forIdentity: "NOR"))
        #expect(borders.targets(of: norway).map { countries.name(of: Int($0)) }.sorted() == ["Finland", "Russian Federation", "Sweden"])
        let (residents, people) = try Self.index("residents", from: RealData.planets)
        #expect(residents.targets.count == 82)
        let (homeworlds, _) = try Self.index("people", from: RealData.planets)
        let naboo = try #require((0..<RealData.planets.count).first { RealData.planets.name(of: $0) == "Naboo" })
        #expect(homeworlds.targets(of: naboo).count == 11)
        #expect(Set(homeworlds.targets(of: naboo)) == Set(residents.targets(of: naboo)))
        #expect(people.count == 82)
    }

    @Test("a declared link matches numbers by their digits, and is followed backwards under the linking dataset's name")
    func declaredLinks() throws {
        let catalog = Catalog(preparesIndexes: false)
        func dataset(_ name: String, _ json: String) throws -> Dataset {
            let path = NSTemporaryDirectory() + "links-\(name)-\(UUID().uuidString).json"
            try json.write(toFile: path, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let request = LoadRequest(name: name, source: .file(path: path), model: GenericModel.self)
            return try DatasetLoader().load(request, progress: LoadProgress(), cancellation: .never)
        }
        let owners = try dataset("owners", #"[{"id": 1, "name": "Ann"}, {"id": 2.0, "name": "Bo"}]"#)
        let pets = try dataset("pets", #"[{"name": "Rex", "owner_id": "1"}, {"name": "Tom", "owner_id": 2}, {"name": "Kit", "owner_id": 3}]"#)
        for dataset in [owners, pets] {
            catalog.insert(dataset, request: LoadRequest(name: dataset.name, source: .file(path: ""), model: GenericModel.self))
        }
        catalog.declare(LinkDefinition(from: "pets", name: "owner_id", field: "owner_id", to: "owners", match: .key("id"), isDeclared: true))
        let forward = LinkIndex.of(try #require(catalog.link("owner_id", from: "pets")), from: pets, to: owners)
        #expect(forward.offsets == [0, 1, 2, 2] && forward.targets == [0, 1])
        let backward = LinkIndex.of(try #require(catalog.link("pets", from: "owners")), from: owners, to: pets)
        #expect(backward.offsets == [0, 1, 2] && backward.targets == [0, 1])
        #expect(catalog.declaredLinkCommands == ["link pets.owner_id to owners.id"])
        #expect(catalog.dropLink(from: "pets", named: "owner_id"))
        #expect(catalog.link("owner_id", from: "pets") == nil)
    }
}
