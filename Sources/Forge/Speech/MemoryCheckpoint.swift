import CLinuxMemory
import Foundation

/// This process's private memory as it is now, to which the process can return after writing to
/// it: what forking gives each child, without a process per use.
///
/// Taking a checkpoint copies every present page of the process's private mappings that are or may
/// become writable (all but the running thread's stack) into a shared mapping of its own, and asks
/// the kernel to track writes to them (userfaultfd's asynchronous write protection, which also
/// covers pages not yet there and reserved space an allocator makes writable later). ``rewind()``
/// asks which pages were written since (`PAGEMAP_SCAN`, Linux 6.7), copies those back (or drops
/// them, if they were not there at the checkpoint, so they read as they did: zeros or the mapped
/// file), and resets the heap's end. It then compares the process's address-space size with the
/// checkpoint's: a mapping made or removed since is state the checkpoint does not cover, and the
/// rewind reports failure, so the caller starts afresh instead.
///
/// The process must be single-threaded while a checkpoint is in use, and whatever must survive a
/// rewind lives on the stack or in shared memory: anything written to private memory since the
/// checkpoint is undone. The type's own fields are constants, and its bookkeeping is in its shared
/// workspace.
struct MemoryCheckpoint {
    private let workspace: UnsafeMutableRawPointer
    private let tracker: Int32
    private let pagemap: Int32
    private let heapEnd: UnsafeMutableRawPointer
    private let savedRuns: Int
    private let addressSpaceSize: Int
    private let spanStart: UInt64
    private let spanEnd: UInt64

    /// The workspace: the listing of mappings, the tracked ranges, the saved runs of pages (address,
    /// end, offset in the saved bytes), a scan's results, then the saved bytes. Reserved, not
    /// committed: only what is written uses memory.
    private enum Layout {
        static let mapsCapacity = 1 << 20
        static let maps = 0
        static let rangeCapacity = 1 << 14
        static let ranges = maps + mapsCapacity
        static let runCapacity = 1 << 16
        static let runs = ranges + rangeCapacity * 16
        static let scanCapacity = 4096
        static let scan = runs + runCapacity * 24
        static let saved = scan + scanCapacity * MemoryLayout<forge_page_region>.stride
        static let savedCapacity = 1 << 30
        static let size = saved + savedCapacity
    }

    /// Takes a checkpoint of this (single-threaded) process, or nil where the kernel cannot track
    /// writes (before Linux 6.7, or where policy forbids userfaultfd, as container seccomp profiles
    /// may).
    static func take() -> MemoryCheckpoint? {
        forge_keep_allocations_in_place()
        let mapped = mmap(nil, Layout.size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
        guard let mapped, mapped != MAP_FAILED else { return nil }
        let workspace = UnsafeMutableRawPointer(mapped)
        let tracker = forge_write_tracking_open()
        let pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC)
        let mapsLength = readMappings(into: workspace + Layout.maps)
        let addressSpaceSize = Self.addressSpaceSize()
        let ranges = (workspace + Layout.ranges).assumingMemoryBound(to: UInt64.self)
        let rangeCount =
            mapsLength > 0 ? trackableRanges(in: workspace + Layout.maps, length: mapsLength, into: ranges) : 0
        var checkpoint: MemoryCheckpoint? = nil
        // Saved before tracking starts: write protection marks pages not yet there in a way the
        // scan cannot tell from pages swapped out, which must be saved.
        if tracker >= 0, pagemap >= 0, rangeCount > 0, addressSpaceSize > 0,
            let savedRuns = save(ranges: ranges, count: rangeCount, workspace: workspace, pagemap: pagemap)
        {
            var registered = true
            for index in 0..<rangeCount where registered {
                registered =
                    forge_write_tracking_register(tracker, ranges[2 * index], ranges[2 * index + 1] - ranges[2 * index])
                    == 0
            }
            if registered {
                checkpoint = MemoryCheckpoint(
                    workspace: workspace, tracker: tracker, pagemap: pagemap, heapEnd: sbrk(0), savedRuns: savedRuns,
                    addressSpaceSize: addressSpaceSize, spanStart: ranges[0], spanEnd: ranges[2 * rangeCount - 1])
            }
        }
        if checkpoint == nil {
            // Closing the descriptor ends the tracking of every range registered with it.
            if tracker >= 0 { close(tracker) }
            if pagemap >= 0 { close(pagemap) }
            munmap(mapped, Layout.size)
        }
        return checkpoint
    }

    /// Whether this kernel tracks writes as checkpoints need: a page of a scratch mapping of this
    /// process is protected, written and must be reported as written, and only it.
    static var kernelTracksWrites: Bool {
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard let mapped = mmap(nil, 2 * pageSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            mapped != MAP_FAILED
        else { return false }
        defer { munmap(mapped, 2 * pageSize) }
        let tracker = forge_write_tracking_open()
        guard tracker >= 0 else { return false }
        defer { close(tracker) }
        let pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC)
        guard pagemap >= 0 else { return false }
        defer { close(pagemap) }
        let start = UInt64(UInt(bitPattern: mapped))
        guard forge_write_tracking_register(tracker, start, UInt64(2 * pageSize)) == 0 else { return false }
        mapped.storeBytes(of: 1, toByteOffset: pageSize, as: UInt8.self)
        var region = forge_page_region()
        var walkEnd: UInt64 = 0
        let found = forge_pagemap_scan(
            pagemap, start, start + UInt64(2 * pageSize), FORGE_PAGE_IS_WRITTEN, 0, 1, &region, 1, &walkEnd)
        return found == 1 && region.start == start + UInt64(pageSize) && region.end == start + UInt64(2 * pageSize)
    }

    /// Returns the process's private memory to the checkpoint. False when it could not, or when the
    /// process's mappings are no longer the checkpoint's: the caller must then not rely on this
    /// process's state (and should start a new process from a clean one).
    func rewind() -> Bool {
        let regions = (workspace + Layout.scan).assumingMemoryBound(to: forge_page_region.self)
        // One scan lists the pages written since the checkpoint in the tracked mappings (those the
        // kernel tracks writes in: the rest of the span is skipped); each run is copied back, then
        // protected again. Protecting in the scan instead would make each copy a write fault, and
        // a second scan to protect the copies again.
        guard
            Self.scan(
                pagemap, from: spanStart, to: spanEnd, categories: FORGE_PAGE_IS_WRITTEN,
                required: FORGE_PAGE_IS_WP_ALLOWED, into: regions,
                {
                    restore(from: $0.start, to: $0.end)
                        && forge_write_protect(tracker, $0.start, $0.end - $0.start) == 0
                })
        else { return false }
        // Memory past the checkpoint's heap end is given back, so the heap grows into fresh zeroed
        // pages again, as the allocator (whose state was rewound) expects.
        guard brk(heapEnd) == 0 else { return false }
        return Self.addressSpaceSize() == addressSpaceSize
    }

    /// The size of this process's address space in pages, or 0.
    private static func addressSpaceSize() -> Int { ProcessPages.read(.size) ?? 0 }

    /// Puts back the saved bytes of [start, end), a run of written pages; parts that were not
    /// present at the checkpoint are dropped, so they read as then (zeros, or the mapped file).
    private func restore(from start: UInt64, to end: UInt64) -> Bool {
        let runs = (workspace + Layout.runs).assumingMemoryBound(to: UInt64.self)
        // The first saved run ending after `start` (runs are sorted and disjoint).
        var low = 0
        var high = savedRuns
        while low < high {
            let middle = (low + high) / 2
            if runs[3 * middle + 1] <= start { low = middle + 1 } else { high = middle }
        }
        var cursor = start
        var run = low
        while cursor < end {
            let runStart = run < savedRuns ? runs[3 * run] : end
            if cursor < runStart {
                let gapEnd = min(runStart, end)
                guard
                    madvise(UnsafeMutableRawPointer(bitPattern: UInt(cursor)), Int(gapEnd - cursor), MADV_DONTNEED) == 0
                else { return false }
                cursor = gapEnd
                continue
            }
            let copyEnd = min(runs[3 * run + 1], end)
            let source = workspace + Layout.saved + Int(runs[3 * run + 2] + (cursor - runStart))
            memcpy(UnsafeMutableRawPointer(bitPattern: UInt(cursor))!, source, Int(copyEnd - cursor))
            cursor = copyEnd
            run += 1
        }
        return true
    }

    /// Copies the present pages of the tracked ranges into the workspace and lists them; nil if
    /// they do not fit.
    private static func save(
        ranges: UnsafeMutablePointer<UInt64>, count: Int, workspace: UnsafeMutableRawPointer, pagemap: Int32
    ) -> Int? {
        let regions = (workspace + Layout.scan).assumingMemoryBound(to: forge_page_region.self)
        let runs = (workspace + Layout.runs).assumingMemoryBound(to: UInt64.self)
        var runCount = 0
        var savedBytes: UInt64 = 0
        for index in 0..<count {
            let scanned = scan(
                pagemap, from: ranges[2 * index], to: ranges[2 * index + 1],
                categories: FORGE_PAGE_IS_PRESENT | FORGE_PAGE_IS_SWAPPED, required: 0, into: regions
            ) { region in
                let length = region.end - region.start
                guard runCount < Layout.runCapacity, savedBytes + length <= UInt64(Layout.savedCapacity) else {
                    return false
                }
                memcpy(
                    workspace + Layout.saved + Int(savedBytes), UnsafeRawPointer(bitPattern: UInt(region.start))!,
                    Int(length))
                runs[3 * runCount] = region.start
                runs[3 * runCount + 1] = region.end
                runs[3 * runCount + 2] = savedBytes
                runCount += 1
                savedBytes += length
                return true
            }
            guard scanned else { return nil }
        }
        return runCount
    }

    /// Runs `PAGEMAP_SCAN` over [start, end) until the walk is done, handing each run of pages in
    /// any of `categories` and all of `required` to `body`; false if a scan fails or `body` does.
    /// `regions` holds one scan's results.
    private static func scan(
        _ pagemap: Int32, from start: UInt64, to end: UInt64, categories: UInt64, required: UInt64,
        into regions: UnsafeMutablePointer<forge_page_region>, _ body: (forge_page_region) -> Bool
    ) -> Bool {
        var cursor = start
        while cursor < end {
            var walkEnd: UInt64 = 0
            let found = forge_pagemap_scan(
                pagemap, cursor, end, categories, required, 0, regions, UInt64(Layout.scanCapacity), &walkEnd)
            guard found >= 0, walkEnd > cursor else { return false }
            for index in 0..<found where !body(regions[index]) { return false }
            cursor = walkEnd
        }
        return true
    }

    /// Reads /proc/self/maps into `buffer`; returns the length, or 0.
    private static func readMappings(into buffer: UnsafeMutableRawPointer) -> Int {
        let file = open("/proc/self/maps", O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return 0 }
        defer { close(file) }
        var length = 0
        while length < Layout.mapsCapacity {
            let count = read(file, buffer + length, Layout.mapsCapacity - length)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return 0 }
            if count == 0 { break }
            length += count
        }
        return length < Layout.mapsCapacity ? length : 0
    }

    /// The mappings of a listing whose pages this process may write, as start and end pairs: private
    /// ones that are writable, or reserved (no access) where an allocator may make them writable,
    /// but the one holding the caller's stack, which a rewind must not touch.
    private static func trackableRanges(
        in listing: UnsafeMutableRawPointer, length: Int, into ranges: UnsafeMutablePointer<UInt64>
    ) -> Int {
        var marker = 0
        let stack = withUnsafeMutablePointer(to: &marker) { UInt64(UInt(bitPattern: $0)) }
        let bytes = listing.assumingMemoryBound(to: UInt8.self)
        var count = 0
        var lineStart = 0
        while lineStart < length && count < Layout.rangeCapacity {
            var lineEnd = lineStart
            while lineEnd < length && bytes[lineEnd] != 0x0A { lineEnd += 1 }
            let (start, end, permissions) = parseMapping(bytes + lineStart, length: lineEnd - lineStart)
            // "rw-p" (readable, writable, private: a shared mapping's writes are not this process's
            // alone) or "---p".
            if permissions == 0x7277_2D70 || permissions == 0x2D2D_2D70, end > start, !(start <= stack && stack < end) {
                ranges[2 * count] = start
                ranges[2 * count + 1] = end
                count += 1
            }
            lineStart = lineEnd + 1
        }
        return count
    }

    /// A maps line's start and end addresses and its four permission characters (as one number).
    private static func parseMapping(_ line: UnsafeMutablePointer<UInt8>, length: Int) -> (UInt64, UInt64, UInt32) {
        var index = 0
        let start = number(line, length: length, at: &index)
        index += 1
        let end = number(line, length: length, at: &index)
        index += 1
        var permissions: UInt32 = 0
        for _ in 0..<4 where index < length {
            permissions = permissions << 8 | UInt32(line[index])
            index += 1
        }
        return (start, end, permissions)
    }

    /// The number (hexadecimal unless `radix` says otherwise) at `index`, which is left past it.
    private static func number(
        _ line: UnsafeMutablePointer<UInt8>, length: Int, at index: inout Int, radix: UInt64 = 16
    ) -> UInt64 {
        var value: UInt64 = 0
        while index < length {
            let byte = line[index]
            let digit: UInt64
            switch byte {
            case 0x30...0x39: digit = UInt64(byte - 0x30)
            case 0x61...0x66 where radix == 16: digit = UInt64(byte - 0x61 + 10)
            default: return value
            }
            value = value * radix + digit
            index += 1
        }
        return value
    }
}
