import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { LoadProblem } from '../../components/Loaded.tsx';
import { trpc } from '../../lib/trpc.ts';
import { useUpdateResources } from './resources.ts';

export function TechTab() {
  const utils = trpc.useUtils();
  const updateResources = useUpdateResources();
  const techs = trpc.tradeGame.techs.useQuery();
  const buy = trpc.tradeGame.buyTech.useMutation({
    onSuccess: (result) => {
      utils.tradeGame.techs.setData(undefined, result.techs);
      updateResources(result.rows);
      void utils.tradeGame.island.invalidate();
    },
  });
  return (
    <div>
      <p className="small">Each technology is bought once and works on every island.</p>
      <LoadProblem query={techs} what="the technologies" />
      <ErrorBubble message={buy.error ? buy.error.message : null} />
      <ul className="tech-list">
        {techs.data?.map((tech) => (
          <li key={tech.name} className="card tech">
            <h3>{tech.name}</h3>
            <p>{tech.effect}</p>
            <p className="small">Cost: {tech.cost.map((c) => `${c.amount} ${c.name}`).join(', ')}</p>
            {tech.owned ? (
              <p className="owned">Owned</p>
            ) : (
              <button type="button" className="button" disabled={buy.isPending} onClick={() => buy.mutate({ tech: tech.name })}>
                Buy {tech.name}
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
