"""Frame floor, the page frame: the scenario in the session and the URL, page chrome, sidebar, presenter mode,
frozen figures, the door every page's work passes, and every patch of Streamlit and Plotly."""
