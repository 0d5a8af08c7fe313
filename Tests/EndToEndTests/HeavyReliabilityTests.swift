import Testing

/// The reliability suites that keep both cores busy (the fuzz, the large files) or measure
/// how fast the shell answers Ctrl-C run one after another inside this suite, so none of them
/// slows the others' timings. See RELIABILITY.md.
@Suite("Reliability: heavy and timed", .serialized)
enum HeavyReliabilityTests {}
