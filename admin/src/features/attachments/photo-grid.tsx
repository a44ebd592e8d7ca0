import { createStyles } from "@mantine/core";
import type { Attachment } from "../../../../api/types";
import { t } from "../../i18n";

const useStyles = createStyles((theme) => ({
  grid: {
    listStyle: "none",
    margin: 0,
    padding: 0,
    display: "grid",
    // Thumbnails between 160 and 200 px: two across a phone, five or six on a desktop card.
    gridTemplateColumns: "repeat(auto-fill, minmax(160px, 1fr))",
    gap: theme.spacing.sm,
    [`@media (min-width: ${theme.breakpoints.sm}px)`]: {
      gridTemplateColumns: "repeat(auto-fill, minmax(160px, 200px))",
    },
  },
  cell: {
    position: "relative",
    display: "block",
    width: "100%",
    padding: 0,
    border: `1px solid ${theme.colors.gray[3]}`,
    borderRadius: theme.radius.sm,
    background: theme.white,
    cursor: "pointer",
    textAlign: "left",
    overflow: "hidden",
    font: "inherit",
    color: "inherit",
    "&:focus-visible, &:focus-within": {
      outline: `3px solid ${theme.colors[theme.primaryColor][7]}`,
      outlineOffset: 2,
    },
  },
  chosen: {
    borderColor: theme.colors[theme.primaryColor][7],
    boxShadow: `0 0 0 2px ${theme.colors[theme.primaryColor][7]}`,
  },
  image: {
    display: "block",
    width: "100%",
    aspectRatio: "1",
    objectFit: "cover",
    background: theme.colors.gray[1],
  },
  name: {
    display: "block",
    padding: `4px ${theme.spacing.xs}px`,
    fontSize: theme.fontSizes.xs,
    whiteSpace: "nowrap",
    overflow: "hidden",
    textOverflow: "ellipsis",
  },
  check: { position: "absolute", top: 8, left: 8, width: 20, height: 20, margin: 0, cursor: "pointer" },
  item: { position: "relative" },
  coverBadge: {
    position: "absolute",
    top: 8,
    right: 8,
    padding: "2px 8px",
    borderRadius: theme.radius.sm,
    background: theme.colors.dark[7],
    color: theme.white,
    fontSize: theme.fontSizes.xs,
    fontWeight: 600,
    pointerEvents: "none",
  },
}));

interface PhotoGridProps {
  photos: Attachment[];
  selecting: boolean;
  isSelected: (id: number) => boolean;
  onToggle: (id: number) => void;
  onOpen: (index: number) => void;
  /** Marked 'Cover': the photo across the top of the delivery page. */
  coverId?: number | null;
}

/**
 * A page of photos as thumbnails. A photo opens the lightbox (its name, size, download and
 * actions); in selection mode it is a checkbox instead. Plain elements styled once for the
 * grid: a page of 60 costs little to draw.
 */
export function PhotoGrid({ photos, selecting, isSelected, onToggle, onOpen, coverId }: PhotoGridProps) {
  const { classes, cx } = useStyles();
  return (
    <ul className={classes.grid} aria-label={t("attachments.photos")}>
      {photos.map((photo, index) => {
        const image = <img className={classes.image} src={photo.thumbnailUrl} alt="" loading="lazy" decoding="async" />;
        const caption = <span className={classes.name}>{photo.originalName}</span>;
        return (
          <li key={photo.id} className={classes.item}>
            {selecting ? (
              <label className={cx(classes.cell, isSelected(photo.id) && classes.chosen)}>
                <input
                  type="checkbox"
                  className={classes.check}
                  checked={isSelected(photo.id)}
                  onChange={() => onToggle(photo.id)}
                  aria-label={t("attachments.select", { originalName: photo.originalName })}
                />
                {image}
                {caption}
              </label>
            ) : (
              <button
                type="button"
                className={classes.cell}
                onClick={() => onOpen(index)}
                aria-label={photo.originalName}
              >
                {image}
                {caption}
              </button>
            )}
            {/* Beside the photo's button, not in it: the button's name stays the photo's. */}
            {photo.id === coverId && <span className={classes.coverBadge}>{t("attachments.cover")}</span>}
          </li>
        );
      })}
    </ul>
  );
}
