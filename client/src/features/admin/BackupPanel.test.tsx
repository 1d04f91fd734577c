import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { BackupStatus } from '@site/contracts/backups';
import { BackupSummary } from './BackupPanel.tsx';

const off: BackupStatus = { scheduled: false, at: '03:00', keep: { days: 7, weeks: 4, months: 6 }, last: null, running: null, next: null };
const run = {
  kind: 'scheduled',
  startedAt: '2026-11-24T03:00:00.000Z',
  finishedAt: '2026-11-24T03:01:00.000Z',
  file: 'site-2026-11-24-0300.tar.gz',
  sizeBytes: 1.5 * 1024 * 1024,
  verified: true,
  error: null,
  removed: false,
} as const;

describe('BackupSummary', () => {
  it('says when backups are not scheduled and none was made', () => {
    render(<BackupSummary status={off} />);
    expect(screen.getByText('None yet')).toBeInTheDocument();
    expect(screen.getByText('Not scheduled: set BACKUP_DIR for the server to make them')).toBeInTheDocument();
    expect(screen.queryByText('Kept')).toBeNull();
  });

  it('shows the last backup with its size and verification, and the next one', () => {
    render(<BackupSummary status={{ ...off, scheduled: true, last: run, next: '2026-11-25T03:00:00.000Z' }} />);
    expect(screen.getByText(/site-2026-11-24-0300\.tar\.gz, 1\.5 MB, verified$/)).toBeInTheDocument();
    expect(screen.getByText(/\(every day at 03:00\)$/)).toBeInTheDocument();
    expect(screen.getByText('The newest of the last 7 days, 4 weeks and 6 months')).toBeInTheDocument();
  });

  it('shows why the last backup failed, and one in progress', () => {
    const failed = { ...run, kind: 'command', sizeBytes: null, verified: false, error: 'ENOSPC: no space left on device' } as const;
    render(<BackupSummary status={{ ...off, last: failed, running: { ...run, finishedAt: null } }} />);
    expect(screen.getByText(/\(by npm run backup\), site-2026-11-24-0300\.tar\.gz: failed: ENOSPC: no space left on device$/)).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(/^A backup is being written/);
  });
});
