import { describe, expect, it } from 'vitest';
import { cutVideoLink, embedLink, youtubeVideoId } from './ytdl.link.ts';
import { downloadFileName } from './ytdl.files.ts';

describe('the video link rule', () => {
  it('cuts a watch link at its first &', () => {
    expect(cutVideoLink('https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=PL123&t=42s')).toBe('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    expect(cutVideoLink('https://m.youtube.com/watch?v=dQw4w9WgXcQ&feature=share')).toBe('https://m.youtube.com/watch?v=dQw4w9WgXcQ');
    expect(cutVideoLink('https://www.youtube.com/watch?v=dQw4w9WgXcQ')).toBe('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
  });
  it('cuts every other link at its first ?', () => {
    expect(cutVideoLink('https://youtu.be/dQw4w9WgXcQ?si=abc&t=3')).toBe('https://youtu.be/dQw4w9WgXcQ');
    expect(cutVideoLink('https://www.youtube.com/shorts/abcDEF12345?feature=share')).toBe('https://www.youtube.com/shorts/abcDEF12345');
    expect(cutVideoLink('https://vimeo.com/76979871?share=copy&x=1')).toBe('https://vimeo.com/76979871');
    expect(cutVideoLink('  https://example.com/clip.mp4  ')).toBe('https://example.com/clip.mp4');
    expect(cutVideoLink('http://127.0.0.1:8080/a.mp4?x=1&y=2')).toBe('http://127.0.0.1:8080/a.mp4');
  });
  it('turns watch and shorts links into youtube-nocookie embeds', () => {
    expect(embedLink('https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=PL1')).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
    expect(embedLink('https://youtube.com/shorts/abcDEF12345?feature=share')).toBe('https://www.youtube-nocookie.com/embed/abcDEF12345');
  });
  it('previews youtu.be and embed links the same way', () => {
    expect(embedLink('https://youtu.be/dQw4w9WgXcQ?si=x')).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
    expect(embedLink('https://www.youtube.com/embed/dQw4w9WgXcQ?start=3')).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
    expect(embedLink('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ')).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
  });
  it('has no preview for other sites, playlists, a watch link without v, or text that is not a link', () => {
    expect(embedLink('https://vimeo.com/76979871')).toBeNull();
    expect(embedLink('https://notyoutube.com/watch?v=dQw4w9WgXcQ')).toBeNull();
    expect(embedLink('https://www.youtube.com/playlist?list=PL1')).toBeNull();
    expect(embedLink('https://www.youtube.com/watch?list=PL1&v=dQw4w9WgXcQ')).toBeNull();
    expect(embedLink('javascript:alert(1)//youtube.com/watch?v=x')).toBeNull();
    expect(embedLink('not a link')).toBeNull();
    expect(youtubeVideoId('https://www.youtube.com/watch?v=<script>')).toBeNull();
  });
});

describe('downloadFileName', () => {
  it('is {title}.{format}', () => {
    expect(downloadFileName('Café clip ✓', 'mp4')).toBe('Café clip ✓.mp4');
    expect(downloadFileName('Song', 'm4a')).toBe('Song.m4a');
  });
  it('cleans what file systems refuse', () => {
    expect(downloadFileName('a/b\\c:d*e?f"g<h>i|j', 'mp4')).toBe('a_b_c_d_e_f_g_h_i_j.mp4');
    expect(downloadFileName('line\nbreak\u0000', 'mp4')).toBe('line_break_.mp4');
    expect(downloadFileName('trailing dots...  ', 'mp4')).toBe('trailing dots.mp4');
    expect(downloadFileName('CON', 'mp4')).toBe('_CON.mp4');
    expect(downloadFileName('', 'm4a')).toBe('video.m4a');
    expect(downloadFileName('///', 'm4a')).toBe('video.m4a');
    expect(downloadFileName('x'.repeat(500), 'mp4')).toBe(`${'x'.repeat(120)}.mp4`);
  });
});
