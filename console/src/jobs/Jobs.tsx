import { useState } from 'react';
import { FailedJob, failedJobs, retryJob } from '../api/jobs';
import { ApiError } from '../api/http';
import { Alert } from '../ui/Alert';
import { useRead } from '../ui/use-read';

/** The organization's jobs that failed every attempt: their error, and a retry. */
export function Jobs() {
  const { value: jobs, error, setError, reload } = useRead<FailedJob[]>(failedJobs, []);
  const [retried, setRetried] = useState<string>();
  const retry = (job: FailedJob) => {
    setError(undefined);
    retryJob(job.id)
      .then(() => {
        setRetried(job.queue);
        reload();
      })
      .catch((e: ApiError) => setError(e.message));
  };
  return (
    <section>
      <h2>Failed jobs</h2>
      <Alert message={error} />
      {retried && <p role="status">{retried}: tried once more.</p>}
      {jobs.length === 0 ? (
        <p>No job has failed every attempt.</p>
      ) : (
        <table aria-label="Failed jobs">
          <thead>
            <tr>
              <th scope="col">Job</th>
              <th scope="col">Error</th>
              <th scope="col">Attempts</th>
              <th scope="col">Failed</th>
              <th scope="col">
                <span className="visually-hidden">Retry</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {jobs.map((job) => (
              <tr key={job.id}>
                <td>{job.queue}</td>
                <td>{job.error}</td>
                <td>{job.attempts}</td>
                <td>{job.failedAt ? new Date(job.failedAt).toLocaleString() : ''}</td>
                <td>
                  <button type="button" onClick={() => retry(job)}>
                    Retry
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
