// A plain IndexedDB request as a promise (account-databases.ts and database-contents.ts read
// IndexedDB without Dexie: the first screens' script does not load it).

export function requestDone<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => {
      resolve(request.result);
    };
    request.onerror = () => {
      reject(request.error ?? new Error('IndexedDB refused the request'));
    };
  });
}
