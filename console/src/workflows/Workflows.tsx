import { FormEvent, useState } from 'react';
import { ApiError } from '../api/http';
import { runWorkflow, WorkflowArgument, WorkflowInfo, workflows } from '../api/workflows';
import { Alert } from '../ui/Alert';
import { useRead } from '../ui/use-read';
import { argumentsOf, ArgumentInputs } from './workflow-arguments';

/** Every workflow (GET /rest/workflow), a form per method, run, and what it answered. */
export function Workflows() {
  const { value: all, error } = useRead<WorkflowInfo[]>(workflows, []);
  return (
    <section>
      <h2>Workflows</h2>
      <Alert message={error} />
      {all.map((workflow) => (
        <article key={workflow.name} className="workflow">
          <h3>{workflow.name}</h3>
          {workflow.methods.map((method) => (
            <MethodForm
              key={method.name}
              workflow={workflow.name}
              method={method.name}
              declared={method.arguments}
            />
          ))}
        </article>
      ))}
    </section>
  );
}

const INPUT_TYPES: Record<WorkflowArgument['type'], string> = {
  string: 'text',
  integer: 'text',
  decimal: 'text',
  datetime: 'datetime-local',
  boolean: 'checkbox',
};

function MethodForm({
  workflow,
  method,
  declared,
}: {
  workflow: string;
  method: string;
  declared: WorkflowArgument[];
}) {
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<{ result?: unknown; error?: string }>();
  const name = `${workflow}.${method}`;

  const run = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const inputs: ArgumentInputs = Object.fromEntries(
      declared.map((argument) => {
        const input = form.elements.namedItem(argument.name) as HTMLInputElement;
        return [argument.name, argument.type === 'boolean' ? input.checked : input.value];
      }),
    );
    const built = argumentsOf(declared, inputs);
    setOutcome(undefined);
    if ('problems' in built) return setProblems(built.problems);
    setProblems({});
    try {
      setOutcome({ result: await runWorkflow(workflow, method, built.body) });
    } catch (error) {
      setOutcome({ error: (error as ApiError).message });
    }
  };

  return (
    <form className="method" aria-label={name} onSubmit={(event) => void run(event)} noValidate>
      <h4>{method}</h4>
      {declared.map((argument) => (
        <div key={argument.name} className="field">
          <label htmlFor={`${name}-${argument.name}`}>
            {argument.name}
            {argument.type === 'datetime' && ' (UTC)'}
            {argument.required && <span aria-hidden="true"> *</span>}
          </label>
          <input
            id={`${name}-${argument.name}`}
            name={argument.name}
            type={INPUT_TYPES[argument.type]}
            step={argument.type === 'datetime' ? 1 : undefined}
            inputMode={
              argument.type === 'integer'
                ? 'numeric'
                : argument.type === 'decimal'
                  ? 'decimal'
                  : undefined
            }
            aria-invalid={problems[argument.name] ? true : undefined}
            aria-describedby={
              problems[argument.name] ? `${name}-${argument.name}-error` : undefined
            }
          />
          {problems[argument.name] && (
            <span id={`${name}-${argument.name}-error`} className="field-error">
              {problems[argument.name]}
            </span>
          )}
        </div>
      ))}
      <button type="submit">Run</button>
      <Alert message={outcome?.error} />
      {outcome && !outcome.error && (
        <pre aria-label={`Result of ${name}`} role="status">
          {JSON.stringify(outcome.result, null, 2)}
        </pre>
      )}
    </form>
  );
}
