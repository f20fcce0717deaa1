import Foundation
import Synchronization
import Testing

@testable import Forge

/// The queue between the thread that speaks Forge's reading and the one that makes its frames:
/// every value once and in order, the maker never more than the capacity ahead, and either side
/// able to end it without the other waiting for ever.
@Suite struct HandOffTests {
    @Test func everyValueArrivesOnceInOrderAndTheMakerStaysWithinTheCapacity() {
        let handOff = HandOff<Int>(capacity: 3)
        let made = Atomic<Int>(0)
        let ahead = Mutex(0)
        BlockingThreads.start(1) { _ in
            defer { handOff.finish() }
            for value in 0..<500 {
                guard handOff.put(value) else { return }
                made.add(1, ordering: .sequentiallyConsistent)
            }
        }
        var taken: [Int] = []
        while let value = handOff.take() {
            // The maker can be at most the capacity ahead of the values taken before this one.
            let lead = made.load(ordering: .sequentiallyConsistent) - taken.count
            ahead.withLock { $0 = max($0, lead) }
            taken.append(value)
            if value % 50 == 0 { usleep(2_000) }
        }
        #expect(taken == Array(0..<500))
        #expect(ahead.withLock { $0 } <= 3 + 1)
        #expect(handOff.take() == nil)
    }

    @Test func aTakerThatCancelsReleasesAMakerWaitingForRoom() {
        let handOff = HandOff<Int>(capacity: 2)
        let refused = DispatchSemaphore(value: 0)
        let putsAccepted = Atomic<Int>(0)
        BlockingThreads.start(1) { _ in
            for value in 0..<1_000 {
                guard handOff.put(value) else { break }
                putsAccepted.add(1, ordering: .sequentiallyConsistent)
            }
            refused.signal()
        }
        #expect(handOff.take() == 0)
        handOff.cancel()
        #expect(refused.wait(timeout: .now() + 5) == .success)
        #expect(putsAccepted.load(ordering: .sequentiallyConsistent) <= 3)
    }

    /// A value taken is the taker's alone: the hand-off holds no more than its capacity (the
    /// reading's items each hold their samples, a megabyte or more).
    @Test func aValueTakenIsNoLongerHeld() {
        let handOff = HandOff<Tracked>(capacity: 2)
        let mostAlive = Mutex(0)
        BlockingThreads.start(1) { _ in
            defer { handOff.finish() }
            for _ in 0..<200 {
                guard handOff.put(Tracked()) else { return }
            }
        }
        var count = 0
        while handOff.take() != nil {
            count += 1
            // The one just taken is gone; the maker holds one more than the capacity at most.
            mostAlive.withLock { $0 = max($0, Tracked.alive.load(ordering: .sequentiallyConsistent)) }
        }
        #expect(count == 200)
        #expect(mostAlive.withLock { $0 } <= 2 + 1, "values taken were still held")
    }
}

/// A value that counts how many of its kind are alive.
private final class Tracked: Sendable {
    static let alive = Atomic<Int>(0)
    init() { Self.alive.add(1, ordering: .sequentiallyConsistent) }
    deinit { Self.alive.subtract(1, ordering: .sequentiallyConsistent) }
}
