import { describe, expect, it } from 'vitest';
import { captionFromName, dateErrors, dateField, dateNote, dateProblem, partsOfDate } from './upload.ts';

describe('upload autofill', () => {
  it('takes the caption from the file name', () => {
    expect(captionFromName('IMG_0042.JPG')).toBe('IMG_0042');
    expect(captionFromName('beach day.final.png')).toBe('beach day.final');
  });
  it('writes unknown month and day as xx, and nothing at all as blank', () => {
    expect(dateField({ year: '2024', month: '7', day: '' })).toBe('2024-07-xx');
    expect(dateField({ year: '2024', month: '', day: '' })).toBe('2024-xx-xx');
    expect(dateField({ year: '', month: '3', day: '1' })).toBe('');
    expect(partsOfDate(new Date(2023, 0, 5))).toEqual({ year: '2023', month: '01', day: '05' });
  });
});

describe('where the suggested date came from', () => {
  it("says a video's date was read from the video, a photo's from the photo", () => {
    expect(dateNote({ type: 'video/mp4', name: 'clip.mp4' }, 'photo')).toBe('Date read from the video.');
    expect(dateNote({ type: '', name: 'IMG_0042.MOV' }, 'photo')).toBe('Date read from the video.');
    expect(dateNote({ type: 'image/jpeg', name: 'beach.jpg' }, 'photo')).toBe('Date read from the photo.');
    expect(dateNote({ type: 'video/mp4', name: 'clip.mp4' }, 'file')).toBe("Date from the file's modified date.");
  });
});

describe("the upload page's date rules", () => {
  it('reads each field with the one number parser and sends the date the server reads', () => {
    expect(dateField({ year: ' 2024 ', month: '07', day: '5' })).toBe('2024-07-05');
    expect(dateErrors({ year: '2024', month: '7', day: '' })).toEqual([]);
    expect(dateErrors({ year: '', month: '', day: '' })).toEqual([]);
  });
  it('refuses a decimal or a letter in a field with a message that says so, and never drops a character', () => {
    expect(dateErrors({ year: '2024', month: '2,5', day: '' })).toEqual(['Month must be a whole number from 1 to 12, with no decimals']);
    expect(dateErrors({ year: '2024', month: '5a', day: '' })).toEqual(['Month must be a whole number from 1 to 12']);
    expect(dateErrors({ year: '2024.0', month: '1', day: '13' })).toEqual(['Year must be a whole number from 1800 to 2200, with no decimals']);
    expect(dateErrors({ year: '1700', month: '13', day: '0' })).toEqual([
      'Year must be a whole number from 1800 to 2200',
      'Month must be a whole number from 1 to 12',
      'Day must be a whole number from 1 to 31',
    ]);
  });
  it('keeps the partial-date rules: the year at least, a day only with its month, a day that exists', () => {
    expect(dateProblem({ year: '', month: '3', day: '' })).toBe('Year is needed for a month or a day: the least a date needs is its year');
    expect(dateProblem({ year: '2024', month: '', day: '9' })).toBe('Month is needed for a day: leave the day blank when the month is unknown');
    expect(dateProblem({ year: '2023', month: '2', day: '29' })).toBe('Day must be from 1 to 28 in February 2023');
    expect(dateProblem({ year: '2024', month: '2', day: '29' })).toBeNull();
    expect(dateField({ year: '2024', month: '2', day: '29' })).toBe('2024-02-29');
  });
});
