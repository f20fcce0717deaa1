import Forge
import Foundation

/// Audio a build left in the remote cache, fetched before a command reads items' samples.
enum LeftAudio {
    /// Fetches it into `directory`'s store (nothing when none was left), saying so on standard error.
    static func fetch(into directory: URL, cancellation: CancellationFlag) async throws {
        let (objects, bytes) = try await RemoteObjectFetcher.fetchLeftAudio(
            outputDirectory: directory, cancellation: cancellation)
        guard objects > 0 else { return }
        FileHandle.standardError.write(
            Data(
                "remote cache: fetched the audio of \(objects) items (\(Format.bytes(bytes))) that the build left there\n"
                    .utf8))
    }
}
