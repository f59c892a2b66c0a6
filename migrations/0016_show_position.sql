-- Members choose whether others see them on maps and nearby (README "Cells, not positions"). Off by default and
-- for every existing member: nobody's area is shown until they opt in on the Nearby screen.
ALTER TABLE `profiles` ADD `show_position` integer DEFAULT false NOT NULL;
