/** The product mark: a node of the grid with three phases. Decorative. */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden className={className} focusable="false">
      <rect width="32" height="32" rx="7" fill="currentColor" opacity="0.14" />
      <path
        d="M7 22 L16 9 L25 22"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.2"
        strokeLinejoin="round"
        strokeLinecap="round"
      />
      <circle cx="16" cy="9" r="2.6" fill="var(--phase-l2)" />
      <circle cx="7" cy="22" r="2.6" fill="var(--phase-l1)" />
      <circle cx="25" cy="22" r="2.6" fill="var(--phase-l3)" />
      <circle cx="16" cy="22" r="1.8" fill="var(--phase-n)" />
    </svg>
  );
}
