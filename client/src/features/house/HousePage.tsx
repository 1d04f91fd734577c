import { useEffect, useState, type FormEvent } from 'react';
import { HOUSE_NOTE_MAX, HOUSE_QUANTITY_MAX, HOUSE_REPEAT_MAX_DAYS, HOUSE_TASK_MAX, houseMessages, isRecentlyDone, type HouseType } from '@site/contracts/house';
import { ChangeMessages } from '../../components/ChangeMessages.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { SyncStatus } from '../../components/SyncStatus.tsx';
import { Loaded } from '../../components/Loaded.tsx';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { NumberInput } from '../../components/NumberInput.tsx';
import { parseNumber } from '../../components/number.ts';
import { TextInput } from '../../components/TextInput.tsx';
import { viewerOf } from '../../lib/access.ts';
import { useLive } from '../../lib/live.ts';
import { errorMessage } from '../../lib/offline-queue.ts';
import { trpc } from '../../lib/trpc.ts';
import { useOfflineQueue } from '../../lib/use-offline-queue.ts';
import { describeHouseOutcome, overlayHouse, type ShownHouseTask } from './house-offline.ts';
import './house.css';

/** The level from which the list can be changed (the server enforces the same). */
const MANAGE_LEVEL = 2;
const REPEAT_RULES = { label: 'The repeat', whole: true, min: 1, max: HOUSE_REPEAT_MAX_DAYS, message: houseMessages.badRepeat } as const;

const dayFormat = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short' });

/** The task with its quantity, note, repeat and due date, and "Waiting" while a change to it is not yet sent. */
function TaskText({ task }: { task: ShownHouseTask }) {
  const details = [
    task.repeatDays !== null ? `Every ${task.repeatDays} day${task.repeatDays === 1 ? '' : 's'}` : null,
    task.dueAt !== null && task.status !== 'Complete' ? `due ${dayFormat.format(new Date(task.dueAt))}` : null,
  ].filter((d) => d !== null);
  return (
    <>
      {task.quantity !== null && <span className="house-quantity">{task.quantity} </span>}
      {task.task}
      {task.note !== null && <span className="house-note">{task.note}</span>}
      {details.length > 0 && <span className="house-note">{details.join(', ')}</span>}
      {task.waiting && <span className="waiting-badge">Waiting</span>}
    </>
  );
}

function HouseTable(props: {
  title: string;
  id: string;
  tasks: ShownHouseTask[];
  manage: boolean;
  action: 'Complete' | 'Undo';
  onAction: (task: ShownHouseTask) => void;
  busy: boolean;
  /** The row just added from this page, scrolled into view (HousePage). */
  added?: ShownHouseTask | undefined;
}) {
  return (
    <section className={`card house-list${props.manage ? ' short' : ''}`} aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      {props.tasks.length === 0 ? (
        <p className="house-empty">Nothing here.</p>
      ) : (
        <div className="house-scroll">
          <DataTable
            className="house-table"
            rows={props.tasks}
            rowKey={(task) => task.id}
            rowClassName={(task) => (task === props.added ? 'house-added' : undefined)}
            columns={[
              { label: 'Task', className: 'house-text', cell: (task) => <TaskText task={task} /> },
              ...(props.manage
                ? [
                    {
                      label: 'Action',
                      hideLabel: true,
                      className: 'house-action',
                      cell: (task: ShownHouseTask) => (
                        // A waiting add has no id on the server yet: it can be completed once it has been sent.
                        <button type="button" className="button" disabled={props.busy || task.id < 0} aria-label={`${props.action} ${task.task}`} onClick={() => props.onAction(task)}>
                          {props.action}
                        </button>
                      ),
                    },
                  ]
                : []),
            ]}
          />
        </div>
      )}
    </section>
  );
}

/** The shared house list: anyone reads it; family and admins add and complete tasks. */
export default function HousePage() {
  const status = trpc.auth.status.useQuery();
  const viewer = viewerOf(status.data);
  const manage = viewer !== null && viewer.level >= MANAGE_LEVEL;
  const tasks = trpc.house.list.useQuery();
  useLive(['house']);
  const utils = trpc.useUtils();
  const [task, setTask] = useState('');
  const [quantity, setQuantity] = useState('');
  const [note, setNote] = useState('');
  const [repeat, setRepeat] = useState('');
  // Writes go through the offline queue: sent at once when online, else kept until the network returns.
  const queue = useOfflineQueue({ area: 'house', describe: describeHouseOutcome });
  const [adding, setAdding] = useState(false);
  const [addError, setAddError] = useState<string | null>(null);
  const [changing, setChanging] = useState(false);
  const [added, setAdded] = useState<{ type: HouseType; task: string } | null>(null);
  useEffect(() => {
    document.title = 'House TODO';
  }, []);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const type: HouseType = submitter?.value === 'To Get' ? 'To Get' : 'To Do';
    const days = parseNumber(repeat, REPEAT_RULES);
    // A refused repeat is already explained under its field.
    if (!days.ok) return;
    setAdding(true);
    setAddError(null);
    queue
      .submit('house.add', { task, type, quantity, note, repeatDays: type === 'To Do' ? days.value : null }, task.trim())
      .then(() => {
        setAdded({ type, task: task.trim() });
        setTask('');
        setQuantity('');
        setNote('');
        setRepeat('');
      })
      .catch((error: unknown) => setAddError(errorMessage(error)))
      .finally(() => setAdding(false));
  };
  const change = (procedure: 'house.complete' | 'house.undo', row: ShownHouseTask) => {
    setChanging(true);
    // Undo of a completion still waiting takes it back instead: the completion of anyone else meanwhile stays.
    const waitingCompletion = procedure === 'house.undo' ? queue.waiting.find((c) => c.procedure === 'house.complete' && c.input.id === row.id) : undefined;
    const taken = waitingCompletion ? queue.withdraw(waitingCompletion.clientId) : Promise.resolve(false);
    taken
      .then((done) => (done ? undefined : queue.submit(procedure, { id: row.id }, row.task)))
      .catch((error: unknown) => {
        window.alert(errorMessage(error));
        void utils.house.list.invalidate();
      })
      .finally(() => setChanging(false));
  };

  const now = Date.now();
  const all = overlayHouse(tasks.data ?? [], queue.waiting, now);
  const ofType = (type: HouseType) => all.filter((t) => t.status === type);
  const onComplete = (row: ShownHouseTask) => change('house.complete', row);
  const onUndo = (row: ShownHouseTask) => change('house.undo', row);
  const recent = all.filter((t) => isRecentlyDone(t, now)).reverse();
  // The row of the task just added (the last one of its name in its list), until it has been shown.
  const addedRow = added ? ofType(added.type).findLast((t) => t.task === added.task) : undefined;
  useEffect(() => {
    if (!addedRow) return;
    document.querySelector('.house-added')?.scrollIntoView({ block: 'nearest' });
    setAdded(null);
  }, [addedRow]);

  return (
    <main className="page house-page">
      <header className="page-hero">
        <h1>House TODO</h1>
        <p className="lead">{manage ? 'What the house needs doing and getting. Complete a task when it is done.' : 'What the house needs doing and getting.'}</p>
      </header>
      <SyncStatus waiting={queue.waiting.length} />
      <ChangeMessages messages={queue.messages} onDismiss={queue.dismiss} />
      {/* Above the lists, so nothing moves when the list arrives (the login status is known before the page renders). */}
      {manage && (
        <section className="card" aria-labelledby="house-add-title">
          <h2 id="house-add-title">Add Task</h2>
          <form onSubmit={submit} className="house-form">
            <TextInput label="Task" value={task} onValueChange={setTask} maxLength={HOUSE_TASK_MAX} required />
            <div className="house-details">
              <TextInput label="Quantity" value={quantity} onValueChange={setQuantity} maxLength={HOUSE_QUANTITY_MAX} />
              <TextInput label="Note" value={note} onValueChange={setNote} maxLength={HOUSE_NOTE_MAX} />
              <NumberInput label="Repeat every N days (To Do)" rules={REPEAT_RULES} value={repeat} onValueChange={setRepeat} />
            </div>
            <div className="link-row">
              <button type="submit" name="type" value="To Do" className="button primary" disabled={adding}>
                To Do
              </button>
              <button type="submit" name="type" value="To Get" className="button primary" disabled={adding}>
                To Get
              </button>
            </div>
          </form>
          <ErrorBubble message={addError} />
        </section>
      )}
      <Loaded query={tasks} what="the house list" loading="Loading the list...">
        {() => (
          <div className="house-grid">
            <HouseTable title="House To Do:" id="house-todo-title" tasks={ofType('To Do')} manage={manage} action="Complete" onAction={onComplete} busy={changing} added={addedRow} />
            <HouseTable title="House To Get:" id="house-toget-title" tasks={ofType('To Get')} manage={manage} action="Complete" onAction={onComplete} busy={changing} added={addedRow} />
            <HouseTable title="Recently done" id="house-done-title" tasks={recent} manage={manage} action="Undo" onAction={onUndo} busy={changing} />
          </div>
        )}
      </Loaded>
    </main>
  );
}
