/** Where a program runs, for the checks of the project files it reads there. */
export interface ProjectPlace {
  program: string;
  /** Whether the command talks to the network (a registry read). */
  network: boolean;
  /** The folders it may run in; undefined when one is only known at run time. */
  cwds: readonly string[] | undefined;
  home: string;
}
