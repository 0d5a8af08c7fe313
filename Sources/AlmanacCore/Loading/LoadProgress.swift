import Foundation
import Synchronization

/// How far a load has come, updated by the loading thread and read by whoever draws a bar.
/// Files count bytes; paged APIs count records against the `count` the first page announced.
public final class LoadProgress: Sendable {
    private let bytesDone = Atomic<Int>(0)
    private let bytesTotal = Atomic<Int>(0)
    private let recordsDone = Atomic<Int>(0)
    private let recordsTotal = Atomic<Int>(0)
    public let started = Date()

    public init() {}

    public func setBytes(done: Int, total: Int? = nil) {
        bytesDone.store(done, ordering: .relaxed)
        if let total { bytesTotal.store(total, ordering: .relaxed) }
    }

    public func setRecords(done: Int, total: Int? = nil) {
        recordsDone.store(done, ordering: .relaxed)
        if let total { recordsTotal.store(total, ordering: .relaxed) }
    }

    public struct Snapshot: Sendable, Equatable {
        public var bytesDone: Int
        public var bytesTotal: Int
        public var recordsDone: Int
        public var recordsTotal: Int
        public var elapsed: Double

        /// 0...1 when known: records for paged APIs, bytes otherwise.
        public var fraction: Double? {
            if recordsTotal > 0 { return min(1, Double(recordsDone) / Double(recordsTotal)) }
            if bytesTotal > 0 { return min(1, Double(bytesDone) / Double(bytesTotal)) }
            return nil
        }

        /// Whether progress counts records (paged APIs) rather than bytes.
        public var countsRecords: Bool { recordsTotal > 0 }
    }

    public var snapshot: Snapshot {
        Snapshot(
            bytesDone: bytesDone.load(ordering: .relaxed), bytesTotal: bytesTotal.load(ordering: .relaxed),
            recordsDone: recordsDone.load(ordering: .relaxed), recordsTotal: recordsTotal.load(ordering: .relaxed),
            elapsed: Date().timeIntervalSince(started)
        )
    }
}
