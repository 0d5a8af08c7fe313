import Foundation
import Testing
@testable import AlmanacCore
#if canImport(Glibc)
import Glibc
#endif

/// The builder writes its nodes and arena through pointers into Arrays it sizes itself
/// (`BuilderStorage`); what it finishes must be exactly what was appended.
@Suite struct BuilderStorageTests {
    @Test func everyLengthOfByteCopyLandsExactly() {
        let source = (0..<80).map { UInt8($0 + 1) }
        for length in 0...70 {
            var storage = BuilderStorage<UInt8>(capacity: 1)
            storage.append(1, 2)
            source.withUnsafeBufferPointer { storage.append(UnsafeBufferPointer(rebasing: $0[3..<(3 + length)])) }
            storage.append(255)
            #expect(storage.elements == [1, 2] + source[3..<(3 + length)] + [255], "length \(length)")
        }
    }

    /// Populating makes the pages the next appends write resident, and only those: what is
    /// written stays, and storage past the stretch (or past the capacity) is not touched.
    @Test func populatingAheadFaultsInTheNextStretchOnly() throws {
        #if os(Linux)
        var storage = BuilderStorage<UInt64>(capacity: 1 << 20)  // 8 MB
        for value in 0..<1000 { storage.append(UInt64(value)) }
        // Untouched past what was written, even where malloc gave back memory used before.
        let written = (Int(bitPattern: storage.base + 1000) + 4095) & ~4095
        let end = Int(bitPattern: storage.base + (1 << 20)) & ~4095
        #expect(madvise(UnsafeMutableRawPointer(bitPattern: written), end - written, MADV_DONTNEED) == 0)
        storage.populate(ahead: 1 << 15)  // 256 KB
        func resident(_ element: Int) -> Bool {
            let page = Int(bitPattern: storage.base + element) & ~4095
            var flag: UInt8 = 0
            return mincore(UnsafeMutableRawPointer(bitPattern: page), 4096, &flag) == 0 && flag & 1 == 1
        }
        #expect(resident(1000 + 512) && resident(1000 + (1 << 15) - 1024))
        #expect(!resident(1 << 17) && !resident((1 << 20) - 600))
        #expect(storage.elements == (0..<1000).map { UInt64($0) })
        storage.populate(ahead: 1 << 30)  // capped at the capacity
        #expect(resident((1 << 20) - 513))
        #endif
    }

    @Test func growingKeepsWhatWasWritten() {
        var storage = BuilderStorage<UInt64>(capacity: 3)
        for value in 0..<1000 { storage.append(UInt64(value) * 3) }
        storage.append(7, 8)
        #expect(storage.elements == (0..<1000).map { UInt64($0) * 3 } + [7, 8])
        #expect(storage.capacity >= 1002)
    }

    @Test func theFinishedArrayStaysAsItWasWhenTheStorageGoesOn() {
        var storage = BuilderStorage<UInt64>(capacity: 100)
        storage.append(1, 2)
        let finished = storage.finished()
        storage.append(3)
        storage[0] = 9
        #expect(finished == [1, 2])
        #expect(storage.elements == [9, 2, 3])
        #expect(storage.finished() == [9, 2, 3])
    }

    @Test func aBuilderFinishedTwiceGivesBothDocumentsTheirOwnNodes() throws {
        var builder = JSONDocumentBuilder(expectedBytes: 0)
        let first = Array(#"{"a":"x","n":1.5}"#.utf8)
        let second = Array(#"["y",2]"#.utf8)
        _ = try first.withUnsafeBufferPointer { buffer throws(LoadFailure) in try JSONParser.parse(buffer, source: "a", into: &builder) }
        let one = builder.finish()
        _ = try second.withUnsafeBufferPointer { buffer throws(LoadFailure) in try JSONParser.parse(buffer, source: "b", into: &builder) }
        let two = builder.finish()
        // object (2 words), key, string, key, number (2 words); then array (2), string, number (2).
        #expect(one.nodes.count == 7)
        #expect(one.arena == Array("axn1.5".utf8))
        #expect(two.roots == [0, 7])
        #expect(two.nodes.count == 7 + 5)
        #expect(Array(two.nodes.prefix(7)) == one.nodes)
        #expect(two.string(at: 9) == "y")
        #expect(two.number(at: 10) == 2)
    }
    /// Each progress report populates the next megabyte of text's worth, but no more than
    /// the rest of the text needs at the rate so far, with an eighth to spare.
    @Test func populatingAheadStopsWhereTheRestOfTheTextPredicts() {
        #expect(JSONDocumentBuilder.ahead(1 << 17, written: 0, textDone: 0, textLeft: 100) == 1 << 17)
        #expect(JSONDocumentBuilder.ahead(1 << 17, written: 40_000, textDone: 1 << 20, textLeft: 1 << 19) == 22_500)
        #expect(JSONDocumentBuilder.ahead(1 << 17, written: 40_000, textDone: 1 << 20, textLeft: 0) == 0)
        #expect(JSONDocumentBuilder.ahead(1 << 17, written: 40_000, textDone: 1 << 20, textLeft: 100 << 20) == 1 << 17)
    }

    @Test func parsingTheStationsFilePopulatesLittleMoreThanItWrites() throws {
        #if os(Linux)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: RealData.directory + "/stations.json")))
        var builder = JSONDocumentBuilder(expectedBytes: bytes.count)
        _ = try bytes.withUnsafeBufferPointer { buffer throws(LoadFailure) in try JSONParser.parse(buffer, source: "stations", into: &builder) }
        let page = Pages.size
        // Before, the last reports populated 0.8 MB of nodes past the 1.3 MB written and 0.3 MB
        // of arena past its 0.56 MB. The arena grows slower as the text goes on (more of its
        // strings were seen before), so the rate so far overshoots it a little.
        #expect(builder.nodeWords.populatedEnd <= builder.nodeWords.count * 9 / 8 + page / 8)
        #expect(builder.arenaBytes.populatedEnd <= builder.arenaBytes.count * 5 / 4 + page)
        #expect(builder.nodeWords.populatedEnd > 0 && builder.arenaBytes.populatedEnd > 0)
        #endif
    }
}
