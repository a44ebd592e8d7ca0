import { useCustomMutation, useDelete } from "@refinedev/core";

/**
 * Deleting one attachment, or several with the bulk call; failures are only logged. The project
 * and its list refresh through the live provider (the server announces both).
 */
export function useAttachmentDeletion() {
  const { mutate: deleteOne, mutation: single } = useDelete();
  const { mutate: deleteMany, mutation: bulk } = useCustomMutation();
  const handlers = (what: string, done: () => void) => ({
    onError: (error: { message: string }) => console.error(`Failed to delete ${what}:`, error.message),
    onSettled: done,
  });

  return {
    pending: single.isPending || bulk.isPending,
    deleteAttachment: (id: number, done: () => void) =>
      deleteOne(
        { resource: "attachments", id, successNotification: false, errorNotification: false },
        handlers("the attachment", done),
      ),
    deleteAttachments: (ids: number[], done: () => void) => {
      if (ids.length === 0) return done();
      deleteMany(
        {
          url: "/attachments",
          method: "delete",
          values: { ids },
          successNotification: false,
          errorNotification: false,
        },
        handlers("the selected attachments", done),
      );
    },
  };
}
