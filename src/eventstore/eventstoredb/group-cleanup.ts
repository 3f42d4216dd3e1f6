// Removing consumer groups from the server. A group's server name carries a hash of its filter
// (server-checks.ts), so a changed filter leaves the old group behind: it holds no messages a new
// group needs, only its checkpoint and parked stream. Operators remove it with this after the
// new group has caught up, and the contract suite removes the groups its run created.
import { acquireClient, releaseClient } from './shared-client.js';

/** Deletes the server's consumer groups on $all whose names start with `prefix`; returns their names. */
export async function deleteConsumerGroups(connectionString: string, prefix: string): Promise<string[]> {
  if (prefix.length === 0) throw new Error('deleteConsumerGroups needs a non-empty name prefix');
  const client = await acquireClient(connectionString);
  try {
    const names = (await client.listPersistentSubscriptionsToAll()).map((g) => g.groupName).filter((n) => n.startsWith(prefix));
    for (const name of names) await client.deletePersistentSubscriptionToAll(name);
    return names;
  } finally {
    await releaseClient(client);
  }
}
