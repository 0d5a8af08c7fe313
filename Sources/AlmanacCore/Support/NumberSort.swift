extension Array where Element == Double {
    /// Sorts ascending exactly as `sort()` does, in linear time: a radix sort of the values'
    /// bits, eleven bits a pass, passes where every value has the same digits skipped. `describe`
    /// sorts a field's numbers for its quartiles; a comparison sort of 400,000 took 30 ms.
    /// NaN and -0 (which `sort()` orders by position) take `sort()`.
    mutating func sortNumbers() {
        guard count > 1024, !contains(where: { $0.isNaN || ($0 == 0 && $0.sign == .minus) }) else {
            sort()
            return
        }
        let sign: UInt64 = 1 << 63
        // Bits that order as the numbers do: negatives' flipped, positives' sign bit set.
        var keys = map { value -> UInt64 in
            let bits = value.bitPattern
            return bits & sign != 0 ? ~bits : bits | sign
        }
        keys.radixSort()
        withUnsafeMutableBufferPointer { values in
            for (index, key) in keys.enumerated() {
                values[index] = Double(bitPattern: key & sign != 0 ? key ^ sign : ~key)
            }
        }
    }
}

extension Array where Element == UInt64 {
    /// Sorts ascending, eleven bits a pass from the lowest, skipping digits every key shares.
    mutating func radixSort() {
        guard count > 1 else { return }
        let digitBits = 11
        let buckets = 1 << digitBits
        let passes = (64 + digitBits - 1) / digitBits
        var histograms = [Int](repeating: 0, count: buckets * passes)
        histograms.withUnsafeMutableBufferPointer { histograms in
            for key in self {
                for pass in 0..<passes { histograms[pass * buckets + Int((key >> UInt64(pass * digitBits)) & UInt64(buckets - 1))] += 1 }
            }
        }
        var other = [UInt64](repeating: 0, count: count)
        for pass in 0..<passes {
            let base = pass * buckets
            // One bucket holding every key: this digit orders nothing.
            if histograms[base + Int((self[0] >> UInt64(pass * digitBits)) & UInt64(buckets - 1))] == count { continue }
            var offset = 0
            for bucket in 0..<buckets {
                let size = histograms[base + bucket]
                histograms[base + bucket] = offset
                offset += size
            }
            withUnsafeBufferPointer { from in
                other.withUnsafeMutableBufferPointer { to in
                    histograms.withUnsafeMutableBufferPointer { starts in
                        for key in from {
                            let slot = base + Int((key >> UInt64(pass * digitBits)) & UInt64(buckets - 1))
                            to[starts[slot]] = key
                            starts[slot] += 1
                        }
                    }
                }
            }
            swap(&self, &other)
        }
    }
}
