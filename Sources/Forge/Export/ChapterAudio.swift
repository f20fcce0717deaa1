/// A chapter's audio: every item's audio object at its place on the timeline, silence between.
enum ChapterAudio {
    static func render(_ timeline: ChapterTimeline, store: ObjectStore) throws -> [Int16] {
        var samples = [Int16](repeating: 0, count: timeline.totalSamples)
        for item in timeline.items {
            let decoded: DecodedAudio
            do { decoded = try SoundFile.decode(fileAt: store.url(forRelativePath: item.audioPath)) } catch {
                throw ExportError.missingAudio(itemID: item.record.id, path: item.audioPath)
            }
            let audio = Resampler.resample(decoded.samples, from: decoded.sampleRate, to: timeline.sampleRate)
            // The timeline counts the header's frames; a decoder that yields a few more or fewer
            // (MP3 padding) must not shift the items after it.
            let count = min(audio.count, item.sampleCount)
            samples.replaceSubrange(item.startSample..<(item.startSample + count), with: audio[0..<count])
        }
        return samples
    }
}
