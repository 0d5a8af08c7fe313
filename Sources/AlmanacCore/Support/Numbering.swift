extension Dictionary where Value == Int {
    /// The number of `key`: the one it was given, or `next` when it is new (then `adding` keeps
    /// what goes with the new number). Values and groups numbered in the order first seen.
    @inline(__always)
    mutating func number(of key: Key, next: Int, adding: () -> Void) -> Int {
        if let known = self[key] { return known }
        self[key] = next
        adding()
        return next
    }
}
