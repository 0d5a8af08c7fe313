import Synchronization

/// `describe`'s fields on both cores: each field's profile is its own work, so two threads
/// take them in turn, the costliest first (a field without a column, such as `point`, whose
/// every object is written out, costs several of the others), and each profile goes into its
/// field's place: the answer, and the first error in the fields' order, are one thread's.
extension Describe {
    /// From this many values (rows × fields) the fields are profiled on two threads. Below it
    /// (the 1× stations: 4,037 rows × 11 fields) waking a second thread costs about what it saves.
    /// Each field's profile reads the shared dataset and document unretained (`profileOf`): with
    /// their reference counts bouncing between the cores, two threads took 287 ms of wall and
    /// 525 ms of CPU at 100×, more than one thread's ~260 ms; without, 141 ms and 278 ms.
    public static let twoThreadsFrom = 1 << 17

    /// One field of one dataset to profile.
    struct FieldJob {
        var dataset: Int
        var field: String
        var rows: [Int]
        var catalog: FieldCatalog
        /// A computed field's expression (`describe population / area`).
        var computed: Expression?
        /// The name a renamed field is shown under (`area as a`).
        var title: String? = nil

        /// Roughly what profiling it costs: a field read without a column walks every record,
        /// and an object found there is written out to be numbered.
        var cost: Int { rows.count * (computed != nil || catalog.column(field) == nil ? 8 : 1) }
    }

    /// `profile` of each job, in the jobs' order. Computed fields are evaluated on this thread
    /// first (an expression may reach linked datasets); the others, when they come to
    /// `twoThreadsFrom` values, on two threads, each taking the costliest job left.
    static func profiles(of jobs: [FieldJob], twoThreadsFrom: Int,
                         _ profile: (FieldJob) throws -> FieldProfile) throws -> [FieldProfile] {
        let values = jobs.reduce(0) { $0 + $1.rows.count }
        guard jobs.count > 1, values >= twoThreadsFrom else { return try jobs.map(profile) }
        var results = [Result<FieldProfile, any Error>?](repeating: nil, count: jobs.count)
        for index in jobs.indices where jobs[index].computed != nil {
            results[index] = Result { try profile(jobs[index]) }
        }
        let order = jobs.indices.filter { jobs[$0].computed == nil }.sorted { a, b in
            jobs[a].cost != jobs[b].cost ? jobs[a].cost > jobs[b].cost : a < b
        }
        let taken = Atomic<Int>(0)
        results.withUnsafeMutableBufferPointer { results in
            onThreads(2) { _ in
                while true {
                    let next = taken.add(1, ordering: .relaxed).oldValue
                    guard next < order.count else { return }
                    let index = order[next]
                    results[index] = Result { try profile(jobs[index]) }
                }
            }
        }
        return try results.map { try $0!.get() }
    }
}
