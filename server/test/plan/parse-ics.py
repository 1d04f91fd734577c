"""Reads an iCalendar file with Python's icalendar (a second, independent parser) and prints its events as JSON."""
import json
import sys

from icalendar import Calendar

with open(sys.argv[1], 'rb') as f:
    calendar = Calendar.from_ical(f.read())
events = []
for event in calendar.walk('VEVENT'):
    start = event.decoded('DTSTART')
    events.append({
        'uid': str(event.get('UID')),
        'summary': str(event.get('SUMMARY')),
        'start': start.isoformat(),
        'utc': getattr(start, 'tzinfo', None) is not None and start.utcoffset().total_seconds() == 0,
        'stamp': event.decoded('DTSTAMP').isoformat(),
    })
print(json.dumps({'version': str(calendar.get('VERSION')), 'prodid': str(calendar.get('PRODID')), 'events': events}))
