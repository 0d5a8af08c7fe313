import Testing
@testable import AlmanacCore

/// A large part merges on two threads and leaves marks where it joined: the document must be
/// the one a single parser makes, the marks must name the elements that held the split, and
/// the station scan that starts from a mark must find what a walk from the start finds.
@Suite struct JSONSplitMergeTests {
    /// A stations file of about `bytes`: one city in `citiesFrom`, the rest in `citiesTo`;
    /// where each city of `citiesTo`, and each of its stations, starts.
    static func stationsText(bytes: Int) -> (text: [UInt8], cityStarts: [Int], stationStarts: [[Int]]) {
        func station(_ id: Int, _ title: String) -> String {
            #"{"stationId": \#(id), "stationTitle": "\#(title)", "cityId": \#(id / 10), "countryTitle": "Россия", "point": {"latitude": \#(Double(id) / 7), "longitude": -\#(id % 9).5}}"#
        }
        var text = Array(#"{"citiesFrom": [{"cityId": -1, "stations": [\#(station(1, "Вена"))]}],\#n "citiesTo": ["#.utf8)
        var cityStarts: [Int] = []
        var stationStarts: [[Int]] = []
        var city = 0
        while text.count < bytes {
            if city > 0 { text += Array(",\n  ".utf8) }
            cityStarts.append(text.count)
            text += Array(#"{"cityId": \#(city), "cityTitle": "Город \#(city % 50)", "stations": ["#.utf8)
            var starts: [Int] = []
            for number in 0..<(1 + city % 3) {
                if number > 0 { text += Array(", ".utf8) }
                starts.append(text.count)
                text += Array(station(city * 10 + number, "Станция \(city) \(number)").utf8)
            }
            text += Array("]}".utf8)
            stationStarts.append(starts)
            city += 1
        }
        text += Array("]}\n".utf8)
        return (text, cityStarts, stationStarts)
    }

    static let file = stationsText(bytes: 3 << 20)

    /// The file parsed with the other part from its middle, merged on two threads (or one),
    /// its pages moved (or copied); and the split.
    static func parsedInTwo(mergeOnTwoThreadsFrom: Int = 0, movePagesFrom: Int = JSONDocumentBuilder.movePagesFrom) throws -> (JSONDocument, Int, JSONSplit) {
        try file.text.withUnsafeBufferPointer { bytes throws(LoadFailure) in
            var builder = JSONDocumentBuilder(expectedBytes: bytes.count)
            let split = JSONSplit(mergeOnTwoThreadsFrom: mergeOnTwoThreadsFrom, movePagesFrom: movePagesFrom)
            split.parseRest(of: bytes, from: bytes.count / 2, source: "t.json")
            let root = try JSONParser.parse(bytes, source: "t.json", into: &builder, split: split)
            return (builder.finish(), root, split)
        }
    }

    @Test func aPartMergedOnTwoThreadsGivesTheDocumentOneParserGives() throws {
        let (document, root, split) = try Self.parsedInTwo()
        #expect(split.wasSpliced)
        #expect(JSONSplitTests.parse(Self.file.text).outcome == .document(JSONSplitTests.describe(document, root)))
    }

    /// Moved pages and copied ones, one thread or two: the document is the same. (Where the
    /// part's nodes are rewritten depends on addresses; several parses vary it.)
    @Test(arguments: [(0, JSONDocumentBuilder.movePagesFrom), (0, Int.max), (Int.max, JSONDocumentBuilder.movePagesFrom), (Int.max, Int.max)])
    func aPartMergedByMovingItsPagesGivesTheDocumentACopyGives(threadsFrom: Int, movePagesFrom: Int) throws {
        let expected = JSONSplitTests.parse(Self.file.text).outcome
        for _ in 0..<3 {
            let (document, root, split) = try Self.parsedInTwo(mergeOnTwoThreadsFrom: threadsFrom, movePagesFrom: movePagesFrom)
            #expect(split.wasSpliced)
            #expect(expected == .document(JSONSplitTests.describe(document, root)))
        }
    }

    @Test func theMarksNameTheElementsThatHeldTheSplit() throws {
        let (document, root, split) = try Self.parsedInTwo()
        let position = try #require(split.publishedPosition)
        let city = try #require(Self.file.cityStarts.lastIndex { $0 <= position })
        let citiesTo = try #require(document.member("citiesTo", of: root))
        let cityNode = document.elements(of: citiesTo)[city]
        var expected = [JSONDocument.ElementMark(array: citiesTo, ordinal: city, node: cityNode)]
        if Self.file.cityStarts[city] != position {
            // The split came between two stations of that city.
            let station = try #require(Self.file.stationStarts[city].firstIndex(of: position))
            let stations = try #require(document.member("stations", of: cityNode))
            expected.insert(JSONDocument.ElementMark(array: stations, ordinal: station, node: document.elements(of: stations)[station]), at: 0)
        }
        #expect(document.elementMarks == expected)
    }

    @Test func aScanFromTheMarkedCityFindsWhatAWalkFromTheStartFinds() throws {
        let (marked, root, _) = try Self.parsedInTwo()
        var builder = JSONDocumentBuilder()
        _ = try Self.file.text.withUnsafeBufferPointer { bytes throws(LoadFailure) in
            try JSONParser.parse(bytes, source: "t.json", into: &builder)
        }
        let plain = builder.finish()
        #expect(plain.elementMarks.isEmpty)
        // The same nodes where they are (string words differ: the arenas are laid out apart).
        #expect(plain.nodes.count == marked.nodes.count)
        let lists = [CityList(node: try #require(marked.member("citiesFrom", of: root)), direction: .from),
                     CityList(node: try #require(marked.member("citiesTo", of: root)), direction: .to)]
        let scanners = [marked, plain].map { StationScanner(document: $0, specs: StationModel.fieldSpecs, nameField: StationModel.nameField) }
        let mark = try #require(marked.elementMarks.last)
        // The middle the two scans meet at is the marked city, which a walk finds at the same place.
        #expect(StationModel.middle(of: lists, in: marked) == mark.node)
        for node in [0, lists[1].node, mark.node - 1, mark.node, mark.node + 1, marked.nodes.count / 3, marked.nodes.count - 1] {
            let (fromMark, fromStart) = (scanners[0].position(of: node, in: lists), scanners[1].position(of: node, in: lists))
            #expect([fromMark.list, fromMark.node, fromMark.offset] == [fromStart.list, fromStart.node, fromStart.offset], "node \(node)")
        }
        let one = try StationModel.extract(from: plain, source: "t.json", cancellation: .never, twoThreadsFrom: .max)
        let two = try StationModel.extract(from: marked, source: "t.json", cancellation: .never, twoThreadsFrom: 0)
        #expect(one.records == two.records)
        #expect(one.records.count == Self.file.stationStarts.joined().count + 1)
    }
}
