import Foundation

#if FORGE_LIBFUZZER
    /// libFuzzer's test function (`scripts/fuzz.sh` builds with `-sanitize=fuzzer -DFORGE_LIBFUZZER`):
    /// libFuzzer mutates inputs with coverage feedback and reports crashes, hangs (`-timeout`) and
    /// runaway memory (`-rss_limit_mb`).
    @_cdecl("LLVMFuzzerTestOneInput")
    public func forgeFuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
        let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
        FuzzTarget.current.run(data)
        return 0
    }

    // libFuzzer's driver, exported by its runtime. Its arguments are plain pointers and a C function
    // pointer, which Swift passes as C does on the platforms this harness runs on.
    @_silgen_name("LLVMFuzzerRunDriver")
    func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    ) -> Int32

    /// SwiftPM links an executable's entry point under this name (and points `main` at it), so it,
    /// not libFuzzer's own `main`, starts the driver.
    @_cdecl("ForgeFuzz_main")
    public func forgeFuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
        var count = argc
        var arguments = argv
        return runFuzzerDriver(&count, &arguments) { bytes, size in forgeFuzzOneInput(bytes, size) }
    }

    extension FuzzTarget {
        static let current: FuzzTarget = {
            detachStandardInput()
            return selected
        }()
    }
#else
    /// Without libFuzzer: a seeded random-mutation harness over the same targets, for machines
    /// without the fuzzer runtime. `forge-fuzz SECONDS SEED-FILES…` mutates the seeds (bit flips,
    /// byte insertions and deletions, splices, repeated chunks) for that long and runs the target
    /// named by `FORGE_FUZZ_TARGET` on each; a crash ends the process with the input saved.
    @main
    struct ForgeFuzz {
        static func main() {
            FuzzTarget.detachStandardInput()
            let target = FuzzTarget.selected
            let arguments = CommandLine.arguments.dropFirst()
            let seconds = Double(arguments.first ?? "") ?? 60
            var seeds = arguments.dropFirst().compactMap { FileManager.default.contents(atPath: $0) }
            if seeds.isEmpty { seeds = [Data()] }
            var generator = SplitMix(seed: UInt64(ProcessInfo.processInfo.environment["FORGE_FUZZ_SEED"] ?? "") ?? 1)
            let deadline = Date().addingTimeInterval(seconds)
            var runs = 0
            let crashFile = "forge-fuzz-\(target.rawValue)-input"
            while Date() < deadline {
                var input = [UInt8](seeds[Int(generator.next() % UInt64(seeds.count))])
                for _ in 0..<(1 + Int(generator.next() % 8)) { mutate(&input, seeds: seeds, using: &generator) }
                // Saved before the run, removed after: what is left after a crash is its input.
                _ = FileManager.default.createFile(atPath: crashFile, contents: Data(input))
                target.run(Data(input))
                runs += 1
            }
            try? FileManager.default.removeItem(atPath: crashFile)
            print("\(target.rawValue): \(runs) inputs in \(Int(seconds)) s, no crash")
        }

        static func mutate(_ input: inout [UInt8], seeds: [Data], using generator: inout SplitMix) {
            let position = input.isEmpty ? 0 : Int(generator.next() % UInt64(input.count))
            switch generator.next() % 6 {
            case 0 where !input.isEmpty: input[position] ^= UInt8(1 << (generator.next() % 8))
            case 1: input.insert(UInt8(truncatingIfNeeded: generator.next()), at: position)
            case 2 where !input.isEmpty:
                input.removeSubrange(position..<min(input.count, position + 1 + Int(generator.next() % 16)))
            case 3:
                let other = [UInt8](seeds[Int(generator.next() % UInt64(seeds.count))])
                guard !other.isEmpty else { return }
                let start = Int(generator.next() % UInt64(other.count))
                input.insert(
                    contentsOf: other[start..<min(other.count, start + 1 + Int(generator.next() % 64))], at: position)
            case 4 where !input.isEmpty:
                let end = min(input.count, position + 1 + Int(generator.next() % 8))
                let chunk = Array(input[position..<end])
                for _ in 0..<Int(generator.next() % 64) { input.insert(contentsOf: chunk, at: position) }
            default:
                let tokens: [String] = [
                    "<div>", "</div>", "<p>", "&amp;", "&#x1F600;", "<!--", "]]>", "\"", "{", "}", "[", "]", ",", "#",
                    "=", "[[", "\n\n", "CHAPTER I", "…", "\u{0}",
                ]
                input.insert(contentsOf: Array(tokens[Int(generator.next() % UInt64(tokens.count))].utf8), at: position)
            }
        }
    }

    /// A small deterministic random number generator, so a seed reproduces a run.
    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
#endif
