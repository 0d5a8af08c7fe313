import AlmanacCore
import AlmanacNetwork
import Foundation

// almanac-fetch: one GET through URLSession for the almanac shell, which starts it for every
// http(s) page so that its own start-up stays free of libcurl. Reads a `FetchRequest` as JSON
// on standard input; writes a `FetchResponse` on standard output.

let input = FileHandle.standardInput.readDataToEndOfFile()
let outcome: HTTPOutcome
if let request = try? JSONDecoder().decode(FetchRequest.self, from: input), let url = URL(string: request.url) {
    do {
        outcome = try URLSessionTransport().get(url, limits: request.limits, cancellation: .never)
    } catch {
        outcome = .transport("\(error)")
    }
} else {
    outcome = .refused("almanac-fetch: the request on standard input is not valid")
}
FileHandle.standardOutput.write(Data(FetchResponse.encode(outcome)))
