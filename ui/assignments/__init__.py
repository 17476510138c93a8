"""The assignments feature: Assignments' strategy tabs, teaching notes and handout, a share group's assignment
beside them, Rebalance's events, and their cached results and figures (Rebalance, Group Protocol, Compare)."""
