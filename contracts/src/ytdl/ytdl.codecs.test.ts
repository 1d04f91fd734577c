import { describe, expect, it } from 'vitest';
import { describeCodecs, ytdlpAge } from './ytdl.codecs.ts';

describe('what a delivered file holds', () => {
  it('says the codecs and whether they play everywhere (H.264 and AAC only)', () => {
    expect(describeCodecs({ video: 'h264', audio: 'aac' })).toEqual({ text: 'H.264 video, AAC audio', playsEverywhere: true });
    expect(describeCodecs({ video: null, audio: 'aac' })).toEqual({ text: 'AAC audio', playsEverywhere: true });
    expect(describeCodecs({ video: 'h264', audio: null })).toEqual({ text: 'H.264 video, no audio', playsEverywhere: true });
    expect(describeCodecs({ video: 'vp9', audio: 'opus' })).toEqual({ text: 'VP9 video, Opus audio', playsEverywhere: false });
    expect(describeCodecs({ video: 'av1', audio: 'aac' })).toEqual({ text: 'AV1 video, AAC audio', playsEverywhere: false });
    expect(describeCodecs({ video: 'mpeg4', audio: 'mp3' })).toEqual({ text: 'MPEG-4 Part 2 video, MP3 audio', playsEverywhere: false });
    expect(describeCodecs({ video: 'prores', audio: 'pcm_s16le' })).toEqual({ text: 'PRORES video, PCM_S16LE audio', playsEverywhere: false });
    expect(describeCodecs({ video: null, audio: null })).toEqual({ text: 'no audio', playsEverywhere: false });
  });
});

describe('the age of yt-dlp', () => {
  const today = new Date('2026-11-24T06:55:00Z');

  it('reads the release date in its version and calls it old after 90 days', () => {
    expect(ytdlpAge('2023.03.04', today)).toEqual({ released: '2023-03-04', ageDays: 1361, outdated: true });
    expect(ytdlpAge('2026.08.26', today)).toEqual({ released: '2026-08-26', ageDays: 90, outdated: false });
    expect(ytdlpAge('2026.08.25', today)).toEqual({ released: '2026-08-25', ageDays: 91, outdated: true });
    // Nightly and patched builds carry more after the date.
    expect(ytdlpAge('2026.11.20.232718', today)).toEqual({ released: '2026-11-20', ageDays: 4, outdated: false });
    expect(ytdlpAge('2023.03.04.1', today)?.outdated).toBe(true);
    // A clock behind the release (a build from "tomorrow") is not negative.
    expect(ytdlpAge('2026.11.25', today)).toMatchObject({ ageDays: 0, outdated: false });
  });

  it('never calls a version that is not a date old', () => {
    for (const version of ['', 'dev', '2023.3.4', '2023.13.01', '2023.02.30', '20230304', 'v2023.03.04']) {
      expect([version, ytdlpAge(version, today)]).toEqual([version, null]);
    }
  });
});
