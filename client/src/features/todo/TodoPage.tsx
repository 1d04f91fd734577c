import { useEffect, useState, type FormEvent } from 'react';
import { parseTodoStatus, todoMessages } from '@site/contracts/todo';
import { ChangeMessages } from '../../components/ChangeMessages.tsx';
import { LoadedTable } from '../../components/LoadedTable.tsx';
import { SyncStatus } from '../../components/SyncStatus.tsx';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { TextInput } from '../../components/TextInput.tsx';
import { useLive } from '../../lib/live.ts';
import { errorMessage } from '../../lib/offline-queue.ts';
import { trpc } from '../../lib/trpc.ts';
import { useOfflineQueue } from '../../lib/use-offline-queue.ts';
import { describeTodoOutcome, overlayTodo, type ShownTodoTask } from './todo-offline.ts';
import './todo.css';

const STATUS_PROMPT = 'New status: Complete, Active, Inactive, Abandoned or Delete';

/** The member's own list: the status is changed through a prompt, Abandoned tasks hide unless asked for. */
export default function TodoPage() {
  const tasks = trpc.todo.list.useQuery();
  useLive(['todo']);
  const utils = trpc.useUtils();
  const [task, setTask] = useState('');
  const [showAbandoned, setShowAbandoned] = useState(false);
  // Writes go through the offline queue: sent at once when online, else kept until the network returns.
  const queue = useOfflineQueue({ area: 'todo', describe: describeTodoOutcome });
  const [adding, setAdding] = useState(false);
  const [addError, setAddError] = useState<string | null>(null);
  useEffect(() => {
    document.title = 'To Do';
  }, []);

  const changeStatus = (row: ShownTodoTask) => {
    const entered = window.prompt(`${STATUS_PROMPT}\n\n${row.task}`, '');
    // Cancel, or OK on an empty answer: nothing to change.
    if (entered === null || entered.trim() === '') return;
    if (parseTodoStatus(entered) === null) {
      window.alert(todoMessages.invalidStatus(entered));
      return;
    }
    // `seen`: the server tells when the task was changed meanwhile on another device.
    queue.submit('todo.update', { id: row.id, task: row.task, status: entered, seen: row.status }, row.task).catch((error: unknown) => {
      window.alert(errorMessage(error));
      void utils.todo.list.invalidate();
    });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAdding(true);
    setAddError(null);
    queue
      .submit('todo.add', { task }, task.trim())
      .then(() => setTask(''))
      .catch((error: unknown) => setAddError(errorMessage(error)))
      .finally(() => setAdding(false));
  };

  const all = overlayTodo(tasks.data ?? [], queue.waiting);
  const shown = showAbandoned ? all : all.filter((t) => t.status !== 'Abandoned');
  const hidden = all.length - shown.length;

  return (
    <main className="page todo-page">
      <header className="page-hero">
        <h1>To Do</h1>
        <p className="lead">Your own list: nobody else sees it. Choose a status to change it.</p>
      </header>
      <SyncStatus waiting={queue.waiting.length} />
      <ChangeMessages messages={queue.messages} onDismiss={queue.dismiss} />
      <section className="card" aria-labelledby="tasks-title">
        <div className="todo-heading">
          <h2 id="tasks-title">Tasks</h2>
          <label className="todo-switch">
            <input type="checkbox" checked={showAbandoned} onChange={(event) => setShowAbandoned(event.target.checked)} />
            Show abandoned{hidden > 0 ? ` (${hidden})` : ''}
          </label>
        </div>
        <LoadedTable
          query={tasks}
          what="your tasks"
          loading="Loading tasks..."
          empty="No tasks yet."
          className="todo-table"
          rows={shown}
          rowKey={(row) => row.id}
          rowClassName={(row) => `todo-${row.status.toLowerCase()}`}
          columns={[
            {
              label: 'Status',
              cell: (row) => (
                <button type="button" className="button todo-status" disabled={row.id < 0} aria-label={`${row.status}: change the status of ${row.task}`} onClick={() => changeStatus(row)}>
                  {row.status}
                </button>
              ),
            },
            {
              label: 'Task',
              className: 'todo-text',
              cell: (row) => (
                <>
                  {row.task}
                  {row.waiting && <span className="waiting-badge">Waiting</span>}
                </>
              ),
            },
          ]}
        />
      </section>
      <section className="card" aria-labelledby="add-task-title">
        <h2 id="add-task-title">Add Task</h2>
        <form onSubmit={submit} className="todo-form">
          <TextInput label="Task" value={task} onValueChange={setTask} maxLength={500} required />
          <button type="submit" className="button primary" disabled={adding}>
            Add Task
          </button>
        </form>
        <ErrorBubble message={addError} />
      </section>
    </main>
  );
}
