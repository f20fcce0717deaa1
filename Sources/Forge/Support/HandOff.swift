import Foundation
import Synchronization

/// Values handed from one thread that makes them to another that takes them in order, at most
/// `capacity` waiting: the maker waits while it is that far ahead, the taker while nothing waits.
/// Either side can end it: the maker with ``finish()`` (the taker gets the rest, then nil), the
/// taker with ``cancel()`` (the maker's next ``put(_:)`` returns false). A value taken is no
/// longer held here: values can be large (an item's samples).
final class HandOff<Element: Sendable>: Sendable {
    private let state = Mutex<(waiting: [Element?], head: Int, finished: Bool, cancelled: Bool)>(([], 0, false, false))
    private let available = DispatchSemaphore(value: 0)
    private let room = DispatchSemaphore(value: 0)

    init(capacity: Int) {
        // Made empty and signalled: a semaphore freed below the value it was made with traps,
        // and a hand-off cancelled with values waiting is freed so.
        for _ in 0..<max(1, capacity) { room.signal() }
    }

    /// Hands on `value`, waiting for room; false when the taker has cancelled (the value is dropped).
    func put(_ value: Element) -> Bool {
        room.wait()
        let taken = state.withLock { state in
            guard !state.cancelled else { return false }
            state.waiting.append(value)
            return true
        }
        if taken { available.signal() } else { room.signal() }
        return taken
    }

    /// No more values: the taker gets those waiting, then nil.
    func finish() {
        state.withLock { $0.finished = true }
        available.signal()
    }

    /// The next value, waiting for it; nil once the maker has finished and every value is taken.
    func take() -> Element? {
        while true {
            available.wait()
            let next: Element?? = state.withLock { state in
                if state.head < state.waiting.count {
                    let value = state.waiting[state.head].take()
                    state.head += 1
                    if state.head > 64 && state.head * 2 > state.waiting.count {
                        state.waiting.removeFirst(state.head)
                        state.head = 0
                    }
                    return .some(value)
                }
                return state.finished ? .some(nil) : nil
            }
            switch next {
            case .some(let value?):
                room.signal()
                return value
            case .some(nil):
                // Finished: leave the signal for a later call, which finds the same.
                available.signal()
                return nil
            case nil:
                continue
            }
        }
    }

    /// The taker wants no more: a maker waiting for room, or putting next, is told so.
    func cancel() {
        state.withLock { $0.cancelled = true }
        room.signal()
    }
}
