import ArgumentParser
import Forge
import Foundation

/// The synthesis worker the orchestrator starts; not for direct use.
struct WorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker", abstract: "Internal: speak jobs read from standard input.", shouldDisplay: false)

    @Option(help: "The output directory whose store receives the objects.")
    var store: String

    func run() throws {
        let status = SpeechWorker(store: ObjectStore(root: URL(fileURLWithPath: store))).run()
        if status != 0 { throw ExitCode(status) }
    }
}
