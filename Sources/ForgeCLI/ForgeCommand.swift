import ArgumentParser
import Forge
import Foundation

/// `forge`: the command-line front of the Forge library.
@main
struct ForgeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forge",
        abstract: "Build audiobook assets from a declarative JSON recipe.",
        discussion: """
            Exit codes: 0 success; 1 built, but some items failed; 2 bad recipe, source or usage;
            3 the build could not run (output directory busy or unwritable, engine missing, manifest unreadable);
            130 cancelled (Ctrl-C or SIGTERM) with every finished item kept.
            """,
        version: ForgeVersion.current,
        subcommands: [
            BuildCommand.self, PlanCommand.self, SplitCommand.self, SpeakCommand.self, AlignCommand.self,
            SyncCommand.self,
            ExportCommand.self, VerifyCommand.self, CheckCommand.self, StatusCommand.self, FsckCommand.self,
            SayCommand.self, VoicesCommand.self, WorkerCommand.self, WarpCommand.self,
        ]
    )

    /// Parses and runs like ArgumentParser's default, but with forge's documented exit codes:
    /// usage errors exit 2 (not 64).
    static func main() async {
        // Before any thread can use OpenSSL (OpenSSLExitCleanup says why).
        OpenSSLExitCleanup.skip()
        // A worker starts espeak-ng (and forks the process its speakers come from) here, on the
        // main thread before any other thread exists, so the speakers' memory checkpoints hold no
        // other thread's stack or allocation arena (each rewind scans all they hold).
        if CommandLine.arguments.count > 1 && CommandLine.arguments[1] == WorkerCommand.configuration.commandName {
            SpeechWorker.startBuiltInEngine()
        } else {
            // Also before other threads: a phase's threads then share arenas (MemoryTrim.limitArenas).
            MemoryTrim.limitArenas()
        }
        await parseAndRun()
    }

    /// Nonisolated, so the parsed command is this function's own value, not the main actor's, when
    /// its (nonisolated) `run()` takes it.
    private nonisolated static func parseAndRun() async {
        do {
            var command = try parseAsRoot()
            LogSetup.bootstrap(verbose: (command as? any VerboseCommand)?.verbose ?? false)
            // Workers ignore Ctrl-C themselves: the orchestrator winds them down.
            if !(command is WorkerCommand) { InterruptMonitor.shared = InterruptMonitor() }
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            // espeak-ng's speakers (Forge's own reading of a narration's text, a `say`) are this
            // process's grandchildren: waited for, their CPU time is counted as this command's.
            EspeakEngine.finish()
        } catch {
            // A stopped command exits at once: a speaker may be in the middle of an item.
            if !InterruptMonitor.flag.isCancelled { EspeakEngine.finish() }
            let code = exitCode(for: error)
            if code == .success {
                exit(withError: error)
            }
            if error is ExitCode || error is CleanExit {
                exit(withError: error)
            }
            if let failure = error as? CommandFailure {
                failure.print()
                Foundation.exit(failure.code.rawValue)
            }
            // Exit 2 is for what the user typed; an error of forge's own that reached here
            // unwrapped gets the code its kind has, never "usage".
            if code == .validationFailure {
                try? FileHandle.standardError.write(contentsOf: Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(ForgeExitCode.usage.rawValue)
            }
            let failure = CommandFailure(error)
            failure.print()
            Foundation.exit(failure.code.rawValue)
        }
    }
}
